import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { startApp, type TestApp } from "../helpers/app.ts";
import { cli } from "../helpers/cli.ts";
import { manualClock } from "../helpers/clock.ts";
import { jarFetch } from "../helpers/cookie-jar.ts";
import { PASSWORD, signUp, type SignedUp, totpCode } from "../helpers/identity.ts";
import { storeEnv } from "../helpers/pg-store.ts";
import { teamOwner, workspaceSignIn } from "../helpers/workspace.ts";
import { confidentialApp, obtainTokensRaw, postForm, type RegisteredApp, TOKEN, withToken } from "../oauth/oauth.fixtures.ts";

// Issue 18 findings 2, 3 and 16 (IdP sign-out): every credential of a person (IdP session, workspace
// session, personal access token, OAuth access and refresh token) ends when it must, and nothing
// brings one back.
const clock = manualClock();
let app: TestApp;
let admin: SignedUp;
let rp: RegisteredApp;

beforeAll(async () => {
  app = await startApp({ overrides: { clock } });
  admin = await signUp(app, "admin");
  rp = await confidentialApp(app, admin);
});
afterAll(() => app.stop());

/** A person holding one of every credential, and a way to try each of them. */
async function personWithEverything(username: string) {
  const { user, team } = await teamOwner(app, username);
  const pat = (await user.browser.json("POST", "/api/oauth/me/tokens", { name: "script", scopes: ["profile"] })).data.secret as string;
  const tokens = await obtainTokensRaw(app, user, rp, "openid profile offline_access");
  const works = {
    session: async () => (await user.bearer("GET", "/api/auth/session")).status === 200,
    cookie: async () => (await user.browser.json("GET", "/api/auth/session")).status === 200,
    workspace: async () => (await user.browser.json("GET", `/api/teams/${team.id}/sets`)).status === 200,
    pat: async () => (await app.client().json("GET", "/api/oauth/me", undefined, { authorization: `Bearer ${pat}` })).status === 200,
    accessToken: async () => (await withToken(app, tokens.access_token)("GET", "/api/oauth/userinfo")).status === 200,
    refreshToken: async () =>
      (await postForm(app, TOKEN, { grant_type: "refresh_token", refresh_token: tokens.refresh_token as string }, { basic: [rp.client_id, rp.client_secret] }))
        .status === 200,
  };
  /** Which credentials work now (the refresh token is tried last: a successful try spends it). */
  const check = async () => {
    const result: Record<string, boolean> = {};
    for (const [name, works_] of Object.entries(works)) result[name] = await works_();
    return result;
  };
  return { user, team, check };
}

const none = { session: false, cookie: false, workspace: false, pat: false, accessToken: false, refreshToken: false };

describe("issue 18: disabling an account", () => {
  it("ends every credential at once, and enabling it again revives none of them", async () => {
    const bob = await personWithEverything("bob");
    expect(await bob.check()).toEqual({ session: true, cookie: true, workspace: true, pat: true, accessToken: true, refreshToken: true });
    const fresh = await personWithEverything("bob2");

    expect((await admin.browser.json("PATCH", `/api/oauth/admin/users/${fresh.user.user.id}`, { disabled: true })).status).toBe(200);
    expect(await fresh.check()).toEqual(none);
    expect((await admin.browser.json("PATCH", `/api/oauth/admin/users/${fresh.user.user.id}`, { disabled: false })).status).toBe(200);
    expect(await fresh.check()).toEqual(none);
    // A new sign-in works again, as it should.
    expect((await jarFetch(app.url).json("POST", "/api/auth/login", { login: "bob2", password: PASSWORD })).status).toBe(200);
  });

  it("takes the person off the workspace's member lists at once", async () => {
    const { user: owner, team } = await teamOwner(app, "carol");
    const dave = await signUp(app, "dave");
    expect((await owner.browser.json("POST", `/api/oauth/me/teams/${team.id}/members`, { username: "dave", role: "member" })).status).toBe(201);
    await workspaceSignIn(app, dave);
    const members = async () =>
      ((await owner.browser.json("GET", `/api/teams/${team.id}/members`)).data.members as { username: string }[]).map((m) => m.username);
    expect(await members()).toEqual(["carol", "dave"]);
    expect((await admin.browser.json("PATCH", `/api/oauth/admin/users/${dave.user.id}`, { disabled: true })).status).toBe(200);
    expect(await members()).toEqual(["carol"]);
    // The IdP's team API marks the account, so later syncs keep it off the list...
    const detail = await owner.bearer("GET", `/api/oauth/me/teams/${team.id}`);
    expect(detail.data.members.find((m: { username: string }) => m.username === "dave")).toMatchObject({ disabled: true });
    clock.advance(10 * 60_000);
    expect(await members()).toEqual(["carol"]);
    // ...until it is enabled again.
    expect((await admin.browser.json("PATCH", `/api/oauth/admin/users/${dave.user.id}`, { disabled: false })).status).toBe(200);
    clock.advance(10 * 60_000);
    await workspaceSignIn(app, owner);
    expect(await members()).toEqual(["carol", "dave"]);
  });
});

describe("issue 18: recovery from the host", () => {
  it("`cairn admin reset-password`, run beside the server, ends every credential of the person", async () => {
    const erin = await personWithEverything("erin");
    // The command runs in its own process, without the server's CAIRN_ISSUER, as an operator would.
    const run = cli(["admin", "reset-password", "erin"], {
      CAIRN_DATA: app.dataDir,
      CAIRN_LOG: "silent",
      CAIRN_ISSUER: "",
      ...(await storeEnv(app.dataDir, {})),
    });
    expect(run.code).toBe(0);
    expect(await erin.check()).toEqual(none);
  });
});

describe("issue 42: recovery with a reset link", () => {
  it("ends every credential of the person exactly as `cairn admin reset-password` does, and removes their second factors", async () => {
    const hana = await personWithEverything("hana");
    const secret: string = (await hana.user.browser.json("POST", "/api/oauth/me/totp")).data.secret;
    expect((await hana.user.browser.json("POST", "/api/oauth/me/totp/confirm", { code: await totpCode(secret, clock.now()) })).status).toBe(200);
    const link = await admin.browser.json("POST", `/api/oauth/admin/users/${hana.user.user.id}/reset-link`);
    expect(link.status).toBe(201);
    const token = new URL(link.data.url).searchParams.get("token");
    expect((await app.client().json("POST", "/api/auth/password/reset", { token, password: "a new passphrase for hana" })).data).toEqual({ ok: true });
    expect(await hana.check()).toEqual(none);
    // The second factor went with the rest: the new password alone signs in, in one step.
    const signedIn = await jarFetch(app.url).json("POST", "/api/auth/login", { login: "hana", password: "a new passphrase for hana" });
    expect(signedIn.data.user?.username).toBe("hana");
  });
});

describe("issue 18: changing the password", () => {
  it("ends the other sessions (and the workspace sessions made from them) and every app token, keeps this session, and says so", async () => {
    const frank = await personWithEverything("frank");
    // A second browser: signs in and changes the password there.
    const other = jarFetch(app.url);
    expect((await other.json("POST", "/api/auth/login", { login: "frank", password: PASSWORD })).status).toBe(200);
    const changed = await other.json("POST", "/api/oauth/me/password", { current_password: PASSWORD, new_password: "a brand new passphrase" });
    expect(changed.status).toBe(200);
    expect(changed.data).toEqual({ ok: true, other_sessions_ended: 1, app_tokens_revoked: true });
    expect((await other.json("GET", "/api/auth/session")).status).toBe(200);
    // Personal access tokens are the person's own keys for their scripts: they stay.
    expect(await frank.check()).toEqual({ ...none, pat: true });
  });
});

describe("issue 18 finding 16: signing out at the IdP", () => {
  it("ends the workspace session made from that IdP session, and only that one", async () => {
    const { user: gina, team } = await teamOwner(app, "gina");
    const elsewhere = jarFetch(app.url);
    expect((await elsewhere.json("POST", "/api/auth/login", { login: "gina", password: PASSWORD })).status).toBe(200);
    await workspaceSignIn(app, { ...gina, browser: elsewhere });
    const sets = (browser: ReturnType<typeof jarFetch>) => browser.json("GET", `/api/teams/${team.id}/sets`);
    expect((await sets(gina.browser)).status).toBe(200);
    expect((await gina.browser.json("POST", "/api/auth/logout")).status).toBe(200);
    expect((await sets(gina.browser)).status).toBe(401);
    expect((await sets(elsewhere)).status).toBe(200);
  });
});
