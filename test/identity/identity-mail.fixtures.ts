import { afterAll, beforeAll } from "bun:test";
import { sql } from "drizzle-orm";
import type { AppContext } from "../../src/context/context.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { type SignedUp, signUp } from "../helpers/identity.ts";
import { type Received, startSmtp, type TestSmtp } from "../helpers/smtp.ts";
import { waitFor } from "../helpers/wait.ts";
import { mailEnv } from "../helpers/workspace-mail.ts";

/** The app sending to a real SMTP server on loopback (test/helpers/smtp.ts), never a mock transport. */
export async function startMailApp(overrides: Partial<Omit<AppContext, "config" | "db">> = {}): Promise<{ app: TestApp; smtp: TestSmtp }> {
  const smtp = await startSmtp();
  const app = await startApp({ env: mailEnv(smtp.url), overrides });
  return { app, smtp };
}

/**
 * One mail app for a test file: started with an administrator (the first account) before its
 * tests, stopped after them. Its members are there once the file's tests run.
 */
export function mailTestbed(overrides: Partial<Omit<AppContext, "config" | "db">> = {}) {
  const bed = {} as { app: TestApp; smtp: TestSmtp; admin: SignedUp };
  beforeAll(async () => {
    Object.assign(bed, await startMailApp(overrides));
    bed.admin = await signUp(bed.app, "admin");
  });
  afterAll(async () => {
    await bed.app?.stop();
    await bed.smtp?.stop();
  });
  return bed;
}

/** The `nth` message to `address` whose subject holds `subject` (received now or soon): the real server's copy. */
export const mailTo = (smtp: TestSmtp, address: string, subject: string, nth = 0) =>
  waitFor(() => smtp.messages.filter((m) => m.to.includes(address) && m.subject.includes(subject))[nth], {
    what: `message ${nth + 1} to ${address} about "${subject}"`,
    timeoutMs: 10_000,
    intervalMs: 10,
  });

/** The link in a message's text to `path` on the app (the action's URL), parsed. */
export function linkIn(mail: Received, path: string): URL {
  for (const found of mail.text.matchAll(/https?:\/\/[^\s<>"]+/g)) {
    const url = new URL(found[0].replace(/[.,)]+$/, ""));
    if (url.pathname === path) return url;
  }
  throw new Error(`no link to ${path} in "${mail.subject}":\n${mail.text}`);
}

/** The token a mailed link carries. */
export const tokenIn = (mail: Received, path: string) => linkIn(mail, path).searchParams.get("token") as string;

/**
 * What the outbox holds of one kind, oldest first (rows queued in the same millisecond in no set
 * order: PostgreSQL keeps no insertion order): what was queued, whatever SMTP does later (a
 * left-out message never gets a row).
 */
export async function queued(app: TestApp, kind: string, to?: string): Promise<{ to: string; subject: string; user_id: string | null }[]> {
  const rows = await app.ctx.db.all<{ to: string; subject: string; user_id: string | null }>(
    sql`SELECT to_address AS "to", subject, user_id FROM mail_outbox WHERE kind = ${kind} ORDER BY created_at`,
  );
  return to === undefined ? rows : rows.filter((r) => r.to === to);
}
