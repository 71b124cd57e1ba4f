import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { count } from "drizzle-orm";
import { withTx } from "../../src/db/tx.ts";
import { mailOutbox } from "../../src/mail/outbox.table.ts";
import { enqueueMail, type OutgoingMail } from "../../src/mail/outbox.service.ts";
import { errorBody } from "../../src/shared/http-errors.ts";
import { AppError } from "../../src/shared/errors.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { signUp, type SignedUp } from "../helpers/identity.ts";
import { startSmtp, type TestSmtp } from "../helpers/smtp.ts";

// Issue 44 item 1: no user text reaches a header unchecked. A recipient, name, subject or header
// value with CR/LF or another control character is refused (never cleaned), as is anything that is
// not one plain address; nothing is queued and nothing is sent.
let smtp: TestSmtp;
let app: TestApp;
let admin: SignedUp;

beforeAll(async () => {
  smtp = await startSmtp();
  app = await startApp({ env: { CAIRN_SMTP_URL: smtp.url, CAIRN_SMTP_FROM: "cairn@example.org" } });
  admin = await signUp(app, "admin");
});
afterAll(async () => {
  await app.stop();
  await smtp.stop();
});

const outboxSize = async () => (await app.ctx.db.select({ n: count() }).from(mailOutbox).get())?.n;
const GOOD: OutgoingMail = { kind: "test", to: "good@example.org", subject: "Hello", text: "t", html: "<p>t</p>" };

/** What enqueueMail threw for `mail`, inside a transaction as callers use it. */
async function refusal(mail: OutgoingMail): Promise<AppError> {
  try {
    await withTx(app.ctx.db, () => enqueueMail(app.ctx, mail));
  } catch (e) {
    if (e instanceof AppError) return e;
    throw e;
  }
  throw new Error("enqueueMail accepted it");
}

describe("issue 44: header injection is refused", () => {
  for (const to of ["ops@example.org\r\nBcc: evil@example.org", "ops@example.org\nBcc: evil@example.org", "ops@example.org\u0000", "ops@example.org\u2028"])
    it(`the test email to ${JSON.stringify(to)}: 400, nothing queued`, async () => {
      const before = await outboxSize();
      const res = await admin.browser.json("POST", "/api/oauth/admin/mail/test", { to });
      expect(res.status).toBe(400);
      expect(res.data).toEqual({
        error: "invalid_request",
        error_description: "The recipient address holds a line break or another control character, which an email header cannot carry.",
      });
      expect(await outboxSize()).toBe(before);
    });

  for (const to of [
    "ops@example.org, evil@example.org",
    "Ops <ops@example.org>",
    '"evil@example.org" ops@example.org',
    "ops@example.org;evil@example.org",
    "no-at-sign",
    "ops@localhost",
    `${"a".repeat(65)}@example.org`,
  ])
    it(`the test email to ${JSON.stringify(to)}: 400 as not one address`, async () => {
      const before = await outboxSize();
      const res = await admin.browser.json("POST", "/api/oauth/admin/mail/test", { to });
      expect(res.status).toBe(400);
      expect(res.data).toEqual({ error: "invalid_request", error_description: "The recipient address must be one valid email address." });
      expect(await outboxSize()).toBe(before);
    });

  const unsafe: [string, Partial<OutgoingMail>][] = [
    ["subject", { subject: "Hi\r\nBcc: evil@example.org" }],
    ["subject", { subject: "Hi\nthere" }],
    ["subject", { subject: "tab\there" }],
    ["recipient name", { toName: "Eve\r\nBcc: evil@example.org" }],
    ["recipient name", { toName: "Eve\u0085" }],
    ["recipient address", { to: "good@example.org\r\n" }],
    ["List-Unsubscribe header", { headers: { "List-Unsubscribe": "<https://x.example/u>\r\nBcc: evil@example.org" } }],
    ['header "Bcc"', { headers: { Bcc: "evil@example.org" } }],
    ['header "X-Evil\\r\\nBcc"', { headers: { "X-Evil\r\nBcc": "evil@example.org" } }],
  ];
  for (const [field, change] of unsafe)
    it(`enqueueMail refuses a ${field} of ${JSON.stringify(Object.values(change)[0])} with unsafe_mail_header`, async () => {
      const before = await outboxSize();
      const error = await refusal({ ...GOOD, ...change });
      expect({ code: error.code, status: error.status, detail: error.detail }).toEqual({ code: "unsafe_mail_header", status: 400, detail: field });
      expect(await outboxSize()).toBe(before);
    });

  it("answers in the spec's error format where a spec route meets it", async () => {
    const error = await refusal({ ...GOOD, subject: "a\r\nb" });
    expect(errorBody(error, "spec")).toEqual({
      error: "Invalid email header",
      code: "unsafe_mail_header",
      error_description: "The subject holds a line break or another control character, which an email header cannot carry.",
    });
    expect(errorBody(await refusal({ ...GOOD, to: "a@b.example, c@d.example" }), "spec")).toMatchObject({
      error: "Invalid email address",
      code: "invalid_email_address",
    });
  });

  it("sent nothing to anyone injected", async () => {
    await withTx(app.ctx.db, () => enqueueMail(app.ctx, GOOD));
    await smtp.waitFor((m) => m.to.includes("good@example.org"));
    const recipients = smtp.messages.flatMap((m) => m.to);
    expect(recipients.filter((to) => to.includes("evil") || to.startsWith("ops@"))).toEqual([]);
    expect(smtp.messages.filter((m) => /evil/i.test(m.raw))).toEqual([]);
  });
});
