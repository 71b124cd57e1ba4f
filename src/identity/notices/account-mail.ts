import { hasControlCharacters, isMailAddress, type MailKind } from "../../contract/mail.ts";
import type { AppContext } from "../../context/context.ts";
import { composeMail } from "../../mail/compose.ts";
import { enqueueMail, mailEnabled, type OutgoingMail } from "../../mail/outbox.service.ts";

/** What queuing a message to an account takes from the context. */
export type AccountMailCtx = Pick<AppContext, "db" | "clock" | "config" | "log" | "siteBranding"> & Parameters<typeof enqueueMail>[0];

/** The account a message goes to. `id` null: the message outlives the account (its deletion). */
export type Recipient = { id: string | null; email: string; name: string };

export type AccountMessage = {
  kind: MailKind;
  subject: string;
  heading: string;
  lines: string[];
  action?: { label: string; url: string };
};

/**
 * The message to an account, made ready to queue: null for an address stored before addresses
 * had to be mailable. The whole message is composed either way, so a caller that must not tell
 * whether it sends (password recovery) spends the same work on both paths.
 */
export async function prepareAccountMail(ctx: AccountMailCtx, to: Recipient, message: AccountMessage): Promise<OutgoingMail | null> {
  // Clipped too: a subject has a length limit (mail/mail-fields.ts), the site's name does not.
  const site = oneLine((await ctx.siteBranding()).site_name).slice(0, 80) || "Cairn";
  const { text, html } = composeMail({
    heading: message.heading,
    lines: message.lines,
    action: message.action,
    footer: `Sent by ${site} (${ctx.config.issuer}) to ${to.email}.`,
  });
  // A display name with a line break would be refused as a header: the address alone then.
  const toName = to.name.trim() && !hasControlCharacters(to.name) ? to.name.trim() : null;
  const mail: OutgoingMail = { to: to.email, toName, subject: `${site}: ${message.subject}`, text, html, kind: message.kind, userId: to.id };
  return isMailAddress(to.email) ? mail : null;
}

/**
 * Queues a message to an account's address, in the caller's transaction (mail/outbox.service.ts),
 * so it exists exactly when the change it reports does. Answers whether it was queued: not
 * without mail set up, nor to an unmailable address (one such account must not stop its own
 * password change), whose skip is logged.
 */
export async function mailAccount(ctx: AccountMailCtx, to: Recipient, message: AccountMessage): Promise<boolean> {
  if (!mailEnabled(ctx)) return false;
  const mail = await prepareAccountMail(ctx, to, message);
  if (mail === null) {
    ctx.log.warn("mail skipped", { kind: message.kind, user_id: to.id, reason: "the account's address is not one mailable address" });
    return false;
  }
  await enqueueMail(ctx, mail);
  return true;
}

/** A team admin names the site (spec 3 settings): whatever they typed, a subject line stays one line. */
const oneLine = (text: string) => text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, " ").trim();

/** An absolute link to one of the web app's pages. */
export const pageUrl = (ctx: Pick<AppContext, "config">, path: string, query: Record<string, string> = {}) => {
  const search = new URLSearchParams(query).toString();
  return `${ctx.config.issuer}${path}${search ? `?${search}` : ""}`;
};

/** A moment in words, in UTC: a message may be read anywhere. */
export const utcTime = (ms: number) => `${new Date(ms).toLocaleString("en-GB", { timeZone: "UTC", dateStyle: "full", timeStyle: "short" })} UTC`;
