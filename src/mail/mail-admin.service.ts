import { SMTP_REQUIRED } from "../config/smtp.ts";
import type { MailStatus } from "../contract/api/mail.ts";
import type { AppContext } from "../context/context.ts";
import { withTx } from "../db/tx.ts";
import { composeMail } from "./compose.ts";
import { checkMailAddress } from "./mail-fields.ts";
import { mailNotConfigured } from "./mail.errors.ts";
import { enqueueMail } from "./outbox.service.ts";
import { recentMail } from "./outbox.repo.ts";

const RECENT = 50;

/** The admin page's Mail section: how mail goes out (never the password), or what to set, and the latest outbox rows. */
export async function mailStatus(ctx: Pick<AppContext, "config" | "db">): Promise<MailStatus> {
  const smtp = ctx.config.smtp;
  const recent = (await recentMail(ctx.db, RECENT)).map((row) => ({
    id: row.id,
    kind: row.kind,
    to: row.toAddress,
    subject: row.subject,
    state: row.state,
    attempts: row.attempts,
    created_at: row.createdAt,
    next_attempt_at: row.state === "pending" ? row.nextAttemptAt : null,
    sent_at: row.sentAt,
    last_error: row.lastError,
  }));
  if (!smtp)
    return {
      configured: false,
      from: null,
      host: null,
      port: null,
      secure: null,
      security: null,
      user: null,
      ca_file: null,
      missing: [...SMTP_REQUIRED],
      recent,
    };
  return {
    configured: true,
    from: smtp.from.name ? `${smtp.from.name} <${smtp.from.address}>` : smtp.from.address,
    host: smtp.host,
    port: smtp.port,
    secure: smtp.secure,
    security: smtp.secure ? "tls" : smtp.requireTls ? "starttls" : "starttls_if_offered",
    user: smtp.user,
    ca_file: smtp.caFile,
    missing: [],
    recent,
  };
}

/** Queues the admin's test message to `to`; mail_not_configured (409) without SMTP, so the admin hears why nothing comes. */
export async function sendTestMail(
  ctx: Pick<AppContext, "config" | "db" | "clock" | "cluster">,
  admin: { id: string; username: string },
  to: string,
): Promise<void> {
  if (!ctx.config.smtp) throw mailNotConfigured();
  checkMailAddress("recipient address", to);
  const { text, html } = composeMail({
    heading: "Cairn can send email",
    lines: [
      `This is a test message that ${admin.username} sent from the admin page of ${ctx.config.issuer}.`,
      "It arrived, so verification links, password resets, invitations and notices will too.",
    ],
    action: { label: "Open the admin page", url: `${ctx.config.issuer}/admin` },
    footer: "You received this because an administrator of this Cairn typed your address. No reply is needed.",
  });
  await withTx(ctx.db, () => enqueueMail(ctx, { kind: "test", to, subject: "Test email from Cairn", text, html, userId: admin.id }));
}
