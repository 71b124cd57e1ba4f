import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { sql } from "drizzle-orm";
import { startApp, type TestApp } from "../helpers/app.ts";
import { signUp, type SignedUp } from "../helpers/identity.ts";

// Issue 44: without SMTP everything works as before, and what would need mail says so, alike for every account.
let app: TestApp;
let admin: SignedUp;

beforeAll(async () => {
  app = await startApp();
  admin = await signUp(app, "admin");
});
afterAll(() => app.stop());

const MAIL_NOT_CONFIGURED = { error: "mail_not_configured" };

describe("issue 44: without mail", () => {
  it("registration, email changes and an admin's reset link work as before; pages learn that mail is missing", async () => {
    const pat = await signUp(app, "pat");
    expect((await pat.browser.json("PATCH", "/api/oauth/me", { email: "pat.new@example.com" })).data.user).toMatchObject({ email_verified: false });
    expect((await admin.browser.json("POST", `/api/oauth/admin/users/${pat.user.id}/reset-link`)).status).toBe(201);
    expect((await app.client().json("GET", "/api/auth/registration")).data.mail).toBe(false);
    expect(await app.ctx.db.all(sql`SELECT count(*) AS n FROM mail_outbox`)).toEqual([{ n: 0 }]);
  });

  it("“Forgot password?”, “Resend” and mailing an invitation say mail is not set up, the same for every login", async () => {
    const ray = await signUp(app, "ray");
    const known = await app.client().json("POST", "/api/auth/password/forgot", { login: "ray" });
    const unknown = await app.client().json("POST", "/api/auth/password/forgot", { login: "nobody-at-all" });
    expect(known).toMatchObject({ status: 409, data: MAIL_NOT_CONFIGURED });
    expect(unknown.data).toEqual(known.data);
    expect(await ray.browser.json("POST", "/api/oauth/me/email/verification")).toMatchObject({ status: 409, data: MAIL_NOT_CONFIGURED });
    expect(await admin.browser.json("POST", "/api/oauth/admin/invites", { email: "sue@example.com", send_email: true })).toMatchObject({
      status: 409,
      data: MAIL_NOT_CONFIGURED,
    });
    expect((await admin.browser.json("GET", "/api/oauth/admin/invites")).data.invites).toEqual([]);
  });
});
