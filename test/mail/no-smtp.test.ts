import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { count } from "drizzle-orm";
import { withTx } from "../../src/db/tx.ts";
import { mailOutbox } from "../../src/mail/outbox.table.ts";
import { enqueueMail, mailEnabled } from "../../src/mail/outbox.service.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { signUp, type SignedUp } from "../helpers/identity.ts";

// Issue 44 item 1: without SMTP everything works as before: nothing is queued (not even mail a
// caller would have been refused), and the admin page says which variables to set.
let app: TestApp;
let admin: SignedUp;

beforeAll(async () => {
  app = await startApp();
  admin = await signUp(app, "admin");
});
afterAll(() => app.stop());

const outboxSize = async () => (await app.ctx.db.select({ n: count() }).from(mailOutbox).get())?.n;

describe("issue 44: without SMTP", () => {
  it("the admin page says mail is not configured and which variables to set", async () => {
    const res = await admin.browser.json("GET", "/api/oauth/admin/mail");
    expect(res.status).toBe(200);
    expect(res.data).toEqual({
      configured: false,
      from: null,
      host: null,
      port: null,
      secure: null,
      security: null,
      user: null,
      ca_file: null,
      missing: ["CAIRN_SMTP_URL (or CAIRN_SMTP_HOST)", "CAIRN_SMTP_FROM"],
      recent: [],
    });
  });

  it("the test email is refused with what is missing, and nothing is queued", async () => {
    const res = await admin.browser.json("POST", "/api/oauth/admin/mail/test", { to: "ops@example.org" });
    expect(res.status).toBe(409);
    expect(res.data).toEqual({
      error: "mail_not_configured",
      error_description: "Cairn has no mail server: set CAIRN_SMTP_URL (or CAIRN_SMTP_HOST) and CAIRN_SMTP_FROM, then restart it.",
    });
    expect(await outboxSize()).toBe(0);
  });

  it("enqueueMail stores nothing and refuses nothing", async () => {
    expect(mailEnabled(app.ctx)).toBe(false);
    await withTx(app.ctx.db, () => enqueueMail(app.ctx, { kind: "security_notice", to: "odd,address@example.org", subject: "x\r\ny", text: "t", html: "t" }));
    expect(await outboxSize()).toBe(0);
  });
});
