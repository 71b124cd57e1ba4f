import type { MailKind } from "../contract/mail.ts";
import type { AppContext } from "../context/context.ts";
import { afterCommit } from "../db/tx.ts";
import { CLUSTER_TOPICS } from "../shared/cluster-topics.ts";
import { randomToken } from "../shared/crypto.ts";
import { checkMailFields } from "./mail-fields.ts";
import { mailOutbox } from "./outbox.table.ts";

export type { MailKind };

/** A message to send: `text` and `html` from composeMail (mail/compose.ts); `headers` only List-Unsubscribe(-Post). */
export type OutgoingMail = {
  to: string;
  toName?: string | null;
  subject: string;
  text: string;
  html: string;
  kind: MailKind;
  userId?: string | null;
  headers?: Record<string, string>;
};

/** Whether SMTP is configured: callers that must tell the person ask this; enqueueMail itself just does nothing without it. */
export const mailEnabled = (ctx: Pick<AppContext, "config">): boolean => ctx.config.smtp !== null;

/**
 * Queues `mail` in the outbox. Call it inside the withTx of the change it reports: the message
 * exists exactly when the change does. The sender is woken once it has committed; nothing here
 * waits on SMTP. Without SMTP configured it stores (and checks) nothing. A recipient, name, subject or header
 * value with CR/LF or another control character throws unsafe_mail_header (400), a bad address
 * invalid_email_address (400), before anything is written.
 */
export async function enqueueMail(ctx: Pick<AppContext, "db" | "clock" | "config" | "cluster">, mail: OutgoingMail): Promise<void> {
  // Without mail everything works as before issue 44: nothing is stored, so nothing is refused.
  if (!mailEnabled(ctx)) return;
  checkMailFields(mail);
  const now = ctx.clock.now();
  const headers = mail.headers && Object.keys(mail.headers).length > 0 ? JSON.stringify(mail.headers) : null;
  await ctx.db
    .insert(mailOutbox)
    .values({
      id: randomToken(15),
      kind: mail.kind,
      toAddress: mail.to,
      toName: mail.toName || null,
      subject: mail.subject,
      textBody: mail.text,
      htmlBody: mail.html,
      headers,
      userId: mail.userId ?? null,
      createdAt: now,
      attempts: 0,
      nextAttemptAt: now,
      state: "pending",
    })
    .run();
  // The sender runs in the primary (or only) process; from a worker the wake-up travels there.
  afterCommit(ctx.db, () => ctx.cluster.tellPrimary(CLUSTER_TOPICS.mailWake, null));
}
