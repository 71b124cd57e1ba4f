import { sql } from "drizzle-orm";
import type { TestApp } from "./app.ts";
import type { SignedUp } from "./identity.ts";
import type { Received } from "./smtp.ts";

export const MAIL_FROM = "Cairn <cairn@example.org>";

/** The environment of an app that sends mail to the test's SMTP server. */
export const mailEnv = (smtpUrl: string) => ({ CAIRN_SMTP_URL: smtpUrl, CAIRN_SMTP_FROM: MAIL_FROM });

/** An administrator marks the person's address verified (issue 44 item 2), as the IdP then vouches for it. */
export async function markVerified(admin: SignedUp, user: SignedUp): Promise<void> {
  const res = await admin.browser.json("PATCH", `/api/oauth/admin/users/${user.user.id}`, { email_verified: true });
  if (res.status !== 200) throw new Error(`marking ${user.user.username} verified failed: ${res.status} ${JSON.stringify(res.data)}`);
}

/** Rows of the outbox: what was queued (a notice left out never gets one, whatever SMTP does later). */
export async function queuedMail(app: TestApp, kind: string, to?: string): Promise<{ to_address: string; subject: string }[]> {
  const rows = await app.ctx.db.all<{ to_address: string; subject: string }>(
    sql`SELECT to_address, subject FROM mail_outbox WHERE kind = ${kind} ORDER BY created_at`,
  );
  return to === undefined ? rows : rows.filter((r) => r.to_address === to);
}

/** A header of a received message as it came over the wire (unfolded), or null. */
export function rawHeader(mail: Received, name: string): string | null {
  const head = mail.raw.split(/\r?\n\r?\n/)[0]?.replace(/\r?\n[ \t]+/g, " ") ?? "";
  const line = head.split(/\r?\n/).find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return line === undefined ? null : line.slice(name.length + 1).trim();
}

/** The one-click unsubscribe URL a notice carries in its List-Unsubscribe header. */
export function unsubscribeUrlOf(mail: Received): string {
  const match = /^<([^>]+)>$/.exec(rawHeader(mail, "List-Unsubscribe") ?? "");
  if (!match) throw new Error("the message has no List-Unsubscribe URL");
  return match[1] as string;
}
