import { type Static, Type } from "@sinclair/typebox";
import { MAIL_KINDS, MAIL_STATES } from "../mail.ts";
import { oneOf, orNull } from "./common.ts";

/** One outbox row as the admin page lists it (no bodies). Times are milliseconds. */
export const OutboxEntry = Type.Object({
  id: Type.String(),
  kind: oneOf(MAIL_KINDS),
  to: Type.String(),
  subject: Type.String(),
  state: oneOf(MAIL_STATES),
  attempts: Type.Number(),
  created_at: Type.Number(),
  next_attempt_at: orNull(Type.Number()),
  sent_at: orNull(Type.Number()),
  last_error: orNull(Type.String()),
});
export type OutboxEntry = Static<typeof OutboxEntry>;

/**
 * `GET /api/oauth/admin/mail`: whether SMTP is configured and how (never the password), the
 * variables still to set when it is not, and the latest outbox entries, newest first.
 */
export const MailStatus = Type.Object({
  configured: Type.Boolean(),
  from: orNull(Type.String()),
  host: orNull(Type.String()),
  port: orNull(Type.Number()),
  /** Implicit TLS (smtps). */
  secure: orNull(Type.Boolean()),
  /** How the connection is protected: implicit TLS, required STARTTLS, or STARTTLS when offered (a loopback server). */
  security: orNull(oneOf(["tls", "starttls", "starttls_if_offered"])),
  user: orNull(Type.String()),
  ca_file: orNull(Type.String()),
  /** What to set for mail to work; empty when configured. */
  missing: Type.Array(Type.String()),
  recent: Type.Array(OutboxEntry),
});
export type MailStatus = Static<typeof MailStatus>;
