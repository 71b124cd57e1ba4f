import { beforeAll, describe, expect, it } from "bun:test";
import { updateSiteConfig } from "../../src/identity/site-config/site-config.ts";
import { linkIn, mailTo, queued, mailTestbed } from "./identity-mail.fixtures.ts";

// Issue 44 item 4: an invitation can be mailed to the address it is for; registering with that
// address from it starts with a verified email (the link reached that mailbox).
const t = mailTestbed();
beforeAll(async () => {
  await updateSiteConfig(t.app.ctx, { registration: "invite" });
});

const invite = (body: object) => t.admin.browser.json("POST", "/api/oauth/admin/invites", body);
const register = (username: string, email: string, code: string) =>
  t.app.client().json("POST", "/api/auth/register", { username, email, password: "a long enough passphrase", invite: code });

describe("issue 44: invitations by mail", () => {
  it("“send by email” mails the link to the invited address; registering with it starts verified, and is sent no verification link", async () => {
    const made = await invite({ email: "Nia@Example.com", send_email: true });
    expect(made.status).toBe(201);
    expect(made.data.invite).toMatchObject({ email: "nia@example.com", mailed_at: expect.any(Number) });
    const mail = await mailTo(t.smtp, "nia@example.com", "you are invited");
    const link = linkIn(mail, "/register");
    expect(link.href).toBe(made.data.url);

    const created = await register("nia", "nia@example.com", link.searchParams.get("invite") as string);
    expect(created.status).toBe(201);
    expect(created.data.user).toMatchObject({ email: "nia@example.com", email_verified: true });
    expect(await queued(t.app, "verify_email", "nia@example.com")).toEqual([]);
    const listed = (await t.admin.browser.json("GET", "/api/oauth/admin/invites")).data.invites.find((i: { id: string }) => i.id === made.data.invite.id);
    expect(listed).toMatchObject({ status: "used", mailed_at: made.data.invite.mailed_at });
  });

  it("an invitation only shown to copy proves no address: that account is sent a verification link", async () => {
    const made = await invite({ email: "oto@example.com" });
    expect(made.data.invite.mailed_at).toBeNull();
    expect(await queued(t.app, "invite", "oto@example.com")).toEqual([]);
    const created = await register("oto", "oto@example.com", made.data.code);
    expect(created.data.user.email_verified).toBe(false);
    await mailTo(t.smtp, "oto@example.com", "confirm your email address");
  });

  it("refuses to mail an invitation without an address, changing nothing", async () => {
    const before = (await t.admin.browser.json("GET", "/api/oauth/admin/invites")).data.invites.length;
    const refused = await invite({ send_email: true });
    expect(refused).toMatchObject({ status: 400, data: { error: "invalid_request" } });
    expect(refused.data.error_description).toContain("needs the address");
    expect(await invite({ email: "bad\r\nBcc: x@example.com", send_email: true })).toMatchObject({ status: 400, data: { error: "invalid_request" } });
    expect((await t.admin.browser.json("GET", "/api/oauth/admin/invites")).data.invites).toHaveLength(before);
    expect((await queued(t.app, "invite")).filter((m) => m.to.includes("x@example.com"))).toEqual([]);
  });
});
