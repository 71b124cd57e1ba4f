import { describe, expect, it } from "bun:test";
import { sql } from "drizzle-orm";
import { recoverAccount } from "../../src/identity/admin/credentials.service.ts";
import { resetPasswordFromHost } from "../../src/identity/admin/reset-password.ts";
import { passkeys } from "../../src/identity/passkeys/passkeys.table.ts";
import { hashPassword } from "../../src/identity/users/passwords.ts";
import { signInWithTotp, signUp } from "../helpers/identity.ts";
import { linkIn, mailTo, mailTestbed } from "./identity-mail.fixtures.ts";

// Issue 44 item 3: every door recovers an account with one function; a reset asked for by email
// keeps the second factors (the mailbox alone must not remove them), the other doors remove them.
const t = mailTestbed();

/** A user with every kind of credential: a session, an authenticator with backup codes, a passkey and a personal access token. */
async function fullyEquipped(username: string) {
  const user = await signUp(t.app, username);
  const totp = await signInWithTotp(t.app, user, () => Date.now());
  await t.app.ctx.db
    .insert(passkeys)
    .values({
      id: `key-of-${username}`,
      userId: user.user.id,
      name: "Laptop",
      publicKey: "AA",
      counter: 0,
      transports: [],
      deviceType: "singleDevice",
      backedUp: false,
      createdAt: Date.now(),
    })
    .run();
  const pat = (await totp.browser.json("POST", "/api/oauth/me/tokens", { name: "script", scopes: ["profile"] })).data.secret as string;
  const count = async (table: string) =>
    (await t.app.ctx.db.all<{ n: number }>(sql`SELECT count(*) AS n FROM ${sql.identifier(table)} WHERE user_id = ${user.user.id}`))[0]?.n;
  return {
    user,
    factors: async () => ({ totp: await count("totp_credentials"), backup_codes: await count("backup_codes"), passkeys: await count("passkeys") }),
    signedIn: async () => [(await user.browser.json("GET", "/api/auth/session")).status, (await totp.browser.json("GET", "/api/auth/session")).status],
    patWorks: async () => (await t.app.client().json("GET", "/api/oauth/me", undefined, { authorization: `Bearer ${pat}` })).status === 200,
  };
}

describe("issue 44: recoverAccount, the one recovery of every door", () => {
  it("with keepSecondFactors, ends every session and token but keeps the authenticator, backup codes and passkeys", async () => {
    const pia = await fullyEquipped("pia");
    expect(await pia.factors()).toEqual({ totp: 1, backup_codes: 10, passkeys: 1 });
    await recoverAccount(t.app.ctx, pia.user.user.id, await hashPassword("pia's new passphrase"), { keepSecondFactors: true });
    expect(await pia.factors()).toEqual({ totp: 1, backup_codes: 10, passkeys: 1 });
    expect(await pia.signedIn()).toEqual([401, 401]);
    expect(await pia.patWorks()).toBe(false);
  });

  it("without, removes them too", async () => {
    const quin = await fullyEquipped("quin");
    await recoverAccount(t.app.ctx, quin.user.user.id, await hashPassword("quin's new passphrase"), { keepSecondFactors: false });
    expect(await quin.factors()).toEqual({ totp: 0, backup_codes: 0, passkeys: 0 });
    expect(await quin.signedIn()).toEqual([401, 401]);
    expect(await quin.patWorks()).toBe(false);
  });
});

describe("issue 44: an administrator's reset link by mail", () => {
  it("is also mailed to the person; using it removes the second factors, and the address hears of it", async () => {
    const rex = await fullyEquipped("rex");
    const made = await t.admin.browser.json("POST", `/api/oauth/admin/users/${rex.user.user.id}/reset-link`);
    expect(Object.keys(made.data).sort()).toEqual(["expires_at", "url"]);
    const mail = await mailTo(t.smtp, "rex@example.com", "a link to choose a new password");
    expect(linkIn(mail, "/reset-password").href).toBe(made.data.url);
    expect(mail.text).toContain("removes its authenticator app, backup codes and passkeys");

    const used = await t.app
      .client()
      .json("POST", "/api/auth/password/reset", { token: new URL(made.data.url).searchParams.get("token"), password: "rex's new passphrase" });
    expect(used.status).toBe(200);
    expect(await rex.factors()).toEqual({ totp: 0, backup_codes: 0, passkeys: 0 });
    const notice = await mailTo(t.smtp, "rex@example.com", "your password was reset");
    expect(notice.text).toContain("Its authenticator app, backup codes and passkeys were removed.");
  });

  it("from the host's command line, too, the address hears of it", async () => {
    const sol = await fullyEquipped("sol");
    expect(await resetPasswordFromHost(t.app.ctx, "sol")).toMatchObject({ username: "sol" });
    expect(await sol.factors()).toEqual({ totp: 0, backup_codes: 0, passkeys: 0 });
    const notice = await mailTo(t.smtp, "sol@example.com", "your password was reset");
    expect(notice.text).toContain("By: an administrator, on the server's command line.");
  });
});
