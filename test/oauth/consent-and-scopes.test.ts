import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { generate } from "otplib";
import * as client from "openid-client";
import { startApp, type TestApp } from "../helpers/app.ts";
import { manualClock } from "../helpers/clock.ts";
import { jarFetch } from "../helpers/cookie-jar.ts";
import { PASSWORD, signUp, type SignedUp } from "../helpers/identity.ts";
import { authorizeInBrowser } from "../helpers/oauth.ts";
import { addMember, makeTeam, TEAMS } from "../identity/teams.fixtures.ts";
import {
  authorizePath,
  callbackParams,
  confidentialApp,
  interactionIdOf,
  obtainTokens,
  obtainTokensRaw,
  postForm,
  REDIRECT,
  type RegisteredApp,
  TOKEN,
  visit,
  withToken,
} from "./oauth.fixtures.ts";

const clock = manualClock();
let app: TestApp;
let admin: SignedUp;
let alice: SignedUp;
let bob: SignedUp;
const team: Record<string, string> = {};
beforeAll(async () => {
  app = await startApp({ overrides: { clock } });
  admin = await signUp(app, "admin");
  alice = await signUp(app, "alice");
  bob = await signUp(app, "bob");
  // Alice's own teams: one with a group she is in, one with groups but none of hers, one without groups.
  team.grouped = await makeTeam(alice, "Grouped");
  await alice.bearer("POST", `${TEAMS}/${team.grouped}/groups`, { slug: "devs", name: "Developers" });
  await alice.bearer("POST", `${TEAMS}/${team.grouped}/groups`, { slug: "ops", name: "Operations" });
  await alice.bearer("PUT", `${TEAMS}/${team.grouped}/groups/devs/members`, { user_ids: [alice.user.id] });
  team.notMine = await makeTeam(alice, "Groups not mine");
  await addMember(alice, team.notMine, bob, "member");
  await alice.bearer("POST", `${TEAMS}/${team.notMine}/groups`, { slug: "qa", name: "QA" });
  await alice.bearer("PUT", `${TEAMS}/${team.notMine}/groups/qa/members`, { user_ids: [bob.user.id] });
  team.plain = await makeTeam(alice, "Plain");
  // Bob's teams, with Alice in several roles.
  team.member = await makeTeam(bob, "Alice member");
  await addMember(bob, team.member, alice, "member");
  team.admin = await makeTeam(bob, "Alice admin");
  await addMember(bob, team.admin, alice, "admin");
  team.coowner = await makeTeam(bob, "Alice co-owner");
  await addMember(bob, team.coowner, alice, "co-owner");
  team.child = await makeTeam(bob, "Child of admin", team.admin); // admin inherited from the parent
  team.outside = await makeTeam(bob, "Outside");
});
afterAll(() => app.stop());

const idClaims = (tokens: Awaited<ReturnType<typeof obtainTokens>>) => tokens.claims() as Record<string, unknown>;
const teamClaimKeys = (claims: Record<string, unknown>) =>
  Object.keys(claims)
    .filter((k) => /_team_/.test(k))
    .sort();

describe("spec 1 section 2.5: ID token claims", () => {
  it("role is always present: user or admin", async () => {
    const rp = await confidentialApp(app, admin);
    expect(idClaims(await obtainTokens(alice, rp, "openid")).role).toBe("user");
    expect(idClaims(await obtainTokens(admin, rp, "openid")).role).toBe("admin");
  });

  it("profile and email claims only with their scopes", async () => {
    const rp = await confidentialApp(app, admin);
    const bare = idClaims(await obtainTokens(alice, rp, "openid"));
    expect(bare.name).toBeUndefined();
    expect(bare.email).toBeUndefined();
    const full = idClaims(await obtainTokens(alice, rp, "openid profile email"));
    expect(full).toMatchObject({ name: "alice", preferred_username: "alice", email: "alice@example.com", email_verified: false });
  });
});

describe("spec 1 section 2.5: flat per-team claims with teams:read", () => {
  it("in_team and role_in_team for every team of the user; groups_in_team only with groups she holds, never empty", async () => {
    const rp = await confidentialApp(app, admin, { scopes: ["openid", "teams:read"] });
    const claims = idClaims(await obtainTokens(alice, rp, "openid teams:read"));
    expect(claims[`in_team_${team.grouped}`]).toBe(true);
    expect(claims[`role_in_team_${team.grouped}`]).toBe("owner");
    expect(claims[`groups_in_team_${team.grouped}`]).toEqual(["devs"]);
    expect(claims[`role_in_team_${team.notMine}`]).toBe("owner");
    expect(claims).not.toHaveProperty(`groups_in_team_${team.notMine}`); // the team has groups, she holds none
    expect(claims[`in_team_${team.plain}`]).toBe(true);
    expect(claims).not.toHaveProperty(`groups_in_team_${team.plain}`); // the team has no groups
    expect(claims[`role_in_team_${team.member}`]).toBe("member");
    expect(claims[`role_in_team_${team.admin}`]).toBe("admin");
    expect(claims[`role_in_team_${team.coowner}`]).toBe("co-owner");
    expect(claims).not.toHaveProperty(`in_team_${team.outside}`);
    for (const [key, value] of Object.entries(claims)) if (key.startsWith("groups_in_team_")) expect((value as string[]).length).toBeGreaterThan(0);
    // Every in_team claim comes with its role_in_team claim.
    for (const key of Object.keys(claims).filter((k) => k.startsWith("in_team_"))) expect(claims[`role_${key}`]).toBeString();
  });

  it("the same flat claims at userinfo", async () => {
    const rp = await confidentialApp(app, admin, { scopes: ["openid", "teams:read"] });
    const tokens = await obtainTokens(alice, rp, "openid teams:read");
    const info = (await client.fetchUserInfo(rp.config, tokens.access_token, alice.user.id)) as Record<string, unknown>;
    expect(info[`groups_in_team_${team.grouped}`]).toEqual(["devs"]);
    expect(info).not.toHaveProperty(`groups_in_team_${team.plain}`);
  });

  it("no team claims without teams:read", async () => {
    const rp = await confidentialApp(app, admin, { scopes: ["openid", "teams:read"], oidc_fields: ["teams"] });
    const claims = idClaims(await obtainTokens(alice, rp, "openid"));
    expect(teamClaimKeys(claims)).toEqual([]);
    expect(claims.teams).toBeUndefined();
  });

  it("the teams claim only when the client enabled the oidc_field teams", async () => {
    const without = await confidentialApp(app, admin, { scopes: ["openid", "teams:read"] });
    expect(idClaims(await obtainTokens(alice, without, "openid teams:read")).teams).toBeUndefined();
    const withField = await confidentialApp(app, admin, { scopes: ["openid", "teams:read"], oidc_fields: ["teams"] });
    const teams = idClaims(await obtainTokens(alice, withField, "openid teams:read")).teams as { id: string; name: string; role: string; groups: string[] }[];
    expect(teams.find((t) => t.id === team.grouped)).toEqual({ id: team.grouped as string, name: "Grouped", role: "owner", groups: ["devs"] });
    expect(teams.find((t) => t.id === team.member)).toMatchObject({ role: "member", groups: [] });
    expect(teams.some((t) => t.id === team.outside)).toBe(false);
  });
});

describe("spec 1 section 2.5: the domains and gpg_keys claims", () => {
  it("carry every domain of the user with its verified state, and her GPG keys, with the scope and the client's oidc_field, in the ID token and at userinfo", async () => {
    app.ctx.dns = { resolveTxt: async () => [] };
    const added = (await alice.browser.json("POST", "/api/oauth/me/domains", { domain: "alice.example" })).data.domain;
    const unproven = (await alice.browser.json("POST", "/api/oauth/me/domains", { domain: "unproven.example" })).data.domain;
    app.ctx.dns = { resolveTxt: async (name: string) => (name === added.txt_record.name ? [[added.txt_record.value]] : []) };
    expect((await alice.browser.json("POST", `/api/oauth/me/domains/${added.id}/verify`)).status).toBe(200);
    const { generateKey } = await import("openpgp");
    const { publicKey } = (await generateKey({
      type: "ecc",
      curve: "curve25519Legacy",
      userIDs: [{ name: "Alice K", email: "alice@example.com" }],
      format: "armored",
    } as never)) as unknown as { publicKey: string };
    const key = (await alice.browser.json("POST", "/api/oauth/me/gpg-keys", { armored: publicKey })).data.gpg_key;

    const rp = await confidentialApp(app, admin, {
      scopes: ["openid", "domains:read", "gpg:read", "social:read"],
      oidc_fields: ["domains", "gpg_keys", "social_accounts"],
    });
    const tokens = await obtainTokens(alice, rp, "openid domains:read gpg:read social:read");
    const claims = idClaims(tokens);
    // Every domain, each with its state: a client trusts only the verified ones.
    const domains = [
      { id: added.id, domain: "alice.example", verified: true },
      { id: unproven.id, domain: "unproven.example", verified: false },
    ];
    expect(claims.domains).toEqual(domains);
    expect(claims.gpg_keys).toEqual([{ id: key.id, fingerprint: key.fingerprint, key_id: key.key_id, name: "Alice K" }]);
    expect(claims.social_accounts).toEqual([]);
    // UserInfo releases the same list claims for this client.
    const info = (await client.fetchUserInfo(rp.config, tokens.access_token, alice.user.id)) as Record<string, unknown>;
    expect([info.domains, info.gpg_keys, info.social_accounts]).toEqual([domains, claims.gpg_keys, []]);
    // Without the scopes, none of them.
    const bareTokens = await obtainTokens(alice, rp, "openid");
    const bare = idClaims(bareTokens);
    expect([bare.domains, bare.gpg_keys, bare.social_accounts]).toEqual([undefined, undefined, undefined]);
    const bareInfo = (await client.fetchUserInfo(rp.config, bareTokens.access_token, alice.user.id)) as Record<string, unknown>;
    expect([bareInfo.domains, bareInfo.gpg_keys, bareInfo.social_accounts]).toEqual([undefined, undefined, undefined]);
  });
});

/** Starts an authorization that needs the consent page; answers the interaction id. */ /** Starts an authorization that needs the consent page; answers the interaction id. */
async function startConsent(who: SignedUp, rp: RegisteredApp, scope: string): Promise<string> {
  const res = await visit(who, authorizePath({ client_id: rp.client_id, redirect_uri: REDIRECT, response_type: "code", scope, state: "c" }));
  expect(res.location).toStartWith("/consent?interaction=");
  return interactionIdOf(res.location as string);
}

const decide = (who: SignedUp, id: string, body: Record<string, unknown>) => who.browser.json("POST", `/api/oauth/interaction/${id}`, body);

/** Redeems the code in a `redirect_to` for the token response. */
async function redeem(rp: RegisteredApp, redirectTo: string) {
  const code = callbackParams(redirectTo).get("code") as string;
  const res = await postForm(app, TOKEN, { grant_type: "authorization_code", code, redirect_uri: REDIRECT }, { basic: [rp.client_id, rp.client_secret] });
  expect(res.status).toBe(200);
  return res.data;
}

describe("spec 1 section 2.3: single-team scopes and the team picker", () => {
  it("team:read shows the picker with the teams she administers (owner, co-owner, admin, inherited admin)", async () => {
    const rp = await confidentialApp(app, admin, { scopes: ["openid", "team:read", "team:delete"] });
    const id = await startConsent(alice, rp, "openid team:read");
    const shown = await alice.browser.json("GET", `/api/oauth/interaction/${id}`);
    expect(shown.status).toBe(200);
    expect(shown.data).toMatchObject({ client: { client_id: rp.client_id }, team_picker: true, site_confirmation: false });
    const eligible = (shown.data.eligible_teams as { id: string }[]).map((t) => t.id).sort();
    expect(eligible).toEqual([team.grouped, team.notMine, team.plain, team.admin, team.coowner, team.child].sort() as string[]);
  });

  it("team:delete narrows the picker to owner and co-owner", async () => {
    const rp = await confidentialApp(app, admin, { scopes: ["openid", "team:read", "team:delete"] });
    const id = await startConsent(alice, rp, "openid team:delete");
    const eligible = ((await alice.browser.json("GET", `/api/oauth/interaction/${id}`)).data.eligible_teams as { id: string }[]).map((t) => t.id).sort();
    expect(eligible).toEqual([team.grouped, team.notMine, team.plain, team.coowner].sort() as string[]);
  });

  it("approving with a team binds the scope to it: the token holds team:<id>:read and claims for that team only", async () => {
    const rp = await confidentialApp(app, admin, { scopes: ["openid", "team:read"] });
    const id = await startConsent(alice, rp, "openid team:read");
    // No team, or one she only belongs to as a member: refused, and the request stays open to correct.
    expect((await decide(alice, id, { decision: "approve" })).status).toBe(400);
    expect((await decide(alice, id, { decision: "approve", team_id: team.member })).status).toBe(400);
    expect((await decide(alice, id, { decision: "approve", team_id: team.outside })).status).toBe(400);
    const answer = await decide(alice, id, { decision: "approve", team_id: team.admin });
    expect(answer.status).toBe(200);
    const tokens = await redeem(rp, answer.data.redirect_to);
    expect(tokens.scope).toBe(`openid team:${team.admin}:read`);
    const claims = JSON.parse(Buffer.from(tokens.id_token.split(".")[1], "base64url").toString());
    expect(teamClaimKeys(claims)).toEqual([`in_team_${team.admin}`, `role_in_team_${team.admin}`].sort());
    expect(claims[`role_in_team_${team.admin}`]).toBe("admin");
    const introspected = await postForm(app, "/api/oauth/introspect", { token: tokens.access_token }, { basic: [rp.client_id, rp.client_secret] });
    expect(introspected.data.scope).toBe(`openid team:${team.admin}:read`);
  });

  it("asks every time: a team scope never skips the consent page, and prompt=none is consent_required", async () => {
    const rp = await confidentialApp(app, admin, { scopes: ["openid", "team:read"] });
    const first = await startConsent(alice, rp, "openid team:read");
    await decide(alice, first, { decision: "approve", team_id: team.plain });
    await startConsent(alice, rp, "openid team:read");
    const none = await visit(
      alice,
      authorizePath({ client_id: rp.client_id, redirect_uri: REDIRECT, response_type: "code", scope: "openid team:read", prompt: "none" }),
    );
    expect(callbackParams(none.location).get("error")).toBe("consent_required");
  });

  it("spec 2.3 rule 8: teams:read together with team:read yields both", async () => {
    const rp = await confidentialApp(app, admin, { scopes: ["openid", "teams:read", "team:read"] });
    const id = await startConsent(alice, rp, "openid teams:read team:read");
    const answer = await decide(alice, id, { decision: "approve", team_id: team.coowner });
    const tokens = await redeem(rp, answer.data.redirect_to);
    expect(tokens.scope.split(" ").sort()).toEqual(["openid", "teams:read", `team:${team.coowner}:read`].sort());
  });
});

describe("spec 1 section 2.3 rule 9: site scopes need an admin, a second factor and the phrase", () => {
  const codeAt = (secret: string) => generate({ secret, epoch: Math.floor(clock.now() / 1000) });
  let totpSecret = "";
  let adminMfa: SignedUp;

  beforeAll(async () => {
    const started = await admin.browser.json("POST", "/api/oauth/me/totp");
    totpSecret = started.data.secret;
    await admin.browser.json("POST", "/api/oauth/me/totp/confirm", { code: await codeAt(totpSecret) });
    clock.advance(30_000);
    const browser = jarFetch(app.url);
    const first = await browser.json("POST", "/api/auth/login", { login: "admin", password: PASSWORD });
    const second = await browser.json("POST", "/api/auth/login/mfa", { mfa_token: first.data.mfa_token, code: await codeAt(totpSecret) });
    expect(second.status).toBe(200);
    adminMfa = { ...admin, browser, token: second.data.session_token };
  });

  it("a user who is not an admin never sees them: they fall out of the request", async () => {
    const rp = await confidentialApp(app, admin, { scopes: ["openid", "site:team:read"] });
    const id = await startConsent(alice, rp, "openid site:team:read");
    const shown = (await alice.browser.json("GET", `/api/oauth/interaction/${id}`)).data;
    expect(shown.scopes).toEqual(["openid"]);
    expect(shown.site_confirmation).toBe(false);
    const tokens = await redeem(rp, (await decide(alice, id, { decision: "approve" })).data.redirect_to);
    expect(tokens.scope).toBe("openid");
  });

  it("an admin signed in without a second factor cannot grant them, even with the phrase", async () => {
    const rp = await confidentialApp(app, admin, { scopes: ["openid", "site:team:read"] });
    const id = await startConsent(admin, rp, "openid site:team:read");
    expect((await admin.browser.json("GET", `/api/oauth/interaction/${id}`)).data.site_confirmation).toBe(true);
    const res = await decide(admin, id, { decision: "approve", confirmation: "grant site access" });
    expect(res.status).toBe(400);
  });

  it("an admin with a second factor must type the exact phrase; then the token holds the site scope", async () => {
    const rp = await confidentialApp(app, admin, { scopes: ["openid", "site:team:read"] });
    const id = await startConsent(adminMfa, rp, "openid site:team:read");
    expect((await decide(adminMfa, id, { decision: "approve" })).status).toBe(400);
    expect((await decide(adminMfa, id, { decision: "approve", confirmation: "Grant Site Access" })).status).toBe(400);
    const answer = await decide(adminMfa, id, { decision: "approve", confirmation: "grant site access" });
    expect(answer.status).toBe(200);
    const tokens = await redeem(rp, answer.data.redirect_to);
    expect(tokens.scope).toBe("openid site:team:read");
  });

  it("denying needs no phrase and gives access_denied", async () => {
    const rp = await confidentialApp(app, admin, { scopes: ["openid", "site:team:read"] });
    const id = await startConsent(admin, rp, "openid site:team:read");
    const answer = await decide(admin, id, { decision: "deny" });
    expect(callbackParams(answer.data.redirect_to).get("error")).toBe("access_denied");
  });
});

describe("consent: remembered per client and scope set (spec 1 section 4.2)", () => {
  it("asks again when the app wants more than was consented, then remembers the union", async () => {
    const rp = await confidentialApp(app, admin);
    await authorizeInBrowser(alice, client.buildAuthorizationUrl(rp.config, { redirect_uri: REDIRECT, scope: "openid profile" }));
    await startConsent(alice, rp, "openid profile email");
    await authorizeInBrowser(alice, client.buildAuthorizationUrl(rp.config, { redirect_uri: REDIRECT, scope: "openid profile email" }));
    const again = await visit(alice, authorizePath({ client_id: rp.client_id, redirect_uri: REDIRECT, response_type: "code", scope: "openid email" }));
    expect(callbackParams(again.location).get("code")).toBeString();
  });

  it("a consent to one app does not carry over to another", async () => {
    const first = await confidentialApp(app, admin);
    const second = await confidentialApp(app, admin);
    await authorizeInBrowser(alice, client.buildAuthorizationUrl(first.config, { redirect_uri: REDIRECT, scope: "openid" }));
    await startConsent(alice, second, "openid");
  });

  it("an interaction belongs to its user: another user cannot read or answer it", async () => {
    const rp = await confidentialApp(app, admin);
    const id = await startConsent(alice, rp, "openid profile");
    expect((await bob.browser.json("GET", `/api/oauth/interaction/${id}`)).status).toBe(404);
    expect((await decide(bob, id, { decision: "approve" })).status).toBe(404);
    expect((await decide(alice, id, { decision: "approve" })).status).toBe(200);
    // Used once.
    expect((await decide(alice, id, { decision: "approve" })).status).toBe(404);
  });
});

describe("concurrency: one consent decision", () => {
  it("of 20 parallel approvals of one interaction exactly one gets a code", async () => {
    const rp = await confidentialApp(app, admin);
    const id = await startConsent(alice, rp, "openid profile");
    const answers = await Promise.all(Array.from({ length: 20 }, () => decide(alice, id, { decision: "approve" })));
    const ok = answers.filter((a) => a.status === 200);
    expect(ok).toHaveLength(1);
    expect(callbackParams(ok[0]?.data.redirect_to).get("code")).toBeString();
    for (const refused of answers.filter((a) => a.status !== 200)) expect(refused.status).toBe(404);
  });
});

describe("an app that changes while the user is on the consent page", () => {
  it("whose redirect URIs were edited: approving sends no code to the old URI", async () => {
    const rp = await confidentialApp(app, admin);
    const id = await startConsent(alice, rp, "openid");
    await admin.browser.json("PATCH", `/api/oauth/me/clients/${rp.client_id}`, { redirect_uris: [{ uri: "https://moved.example/cb", match: "equals" }] });
    const answer = await decide(alice, id, { decision: "approve" });
    expect({ status: answer.status, error: answer.data.error }).toEqual({ status: 400, error: "invalid_request" });
    expect(answer.data.redirect_to).toBeUndefined();
  });

  it("that was deleted: the request is gone", async () => {
    const rp = await confidentialApp(app, admin);
    const id = await startConsent(alice, rp, "openid");
    await admin.browser.json("DELETE", `/api/oauth/me/clients/${rp.client_id}`);
    const answer = await decide(alice, id, { decision: "approve" });
    expect(answer.status).toBe(404);
    expect(answer.data.redirect_to).toBeUndefined();
  });
});

describe("authorized apps: /api/oauth/me/consents", () => {
  it("lists the apps the user consented to, with their scopes", async () => {
    const rp = await confidentialApp(app, admin, { name: "Listed app" });
    await obtainTokens(bob, rp, "openid profile");
    const list = await bob.browser.json("GET", "/api/oauth/me/consents");
    expect(list.status).toBe(200);
    expect(list.data.consents).toContainEqual(
      // An app the site admin registered starts verified (issue 42).
      expect.objectContaining({ client_id: rp.client_id, name: "Listed app", is_verified: true, scopes: ["openid", "profile"] }),
    );
  });

  it("revoking a consent stops the app's tokens at once and asks for consent again next time", async () => {
    const rp = await confidentialApp(app, admin);
    const tokens = await obtainTokensRaw(app, bob, rp, "openid offline_access");
    expect((await withToken(app, tokens.access_token)("GET", "/api/oauth/userinfo")).status).toBe(200);
    const res = await bob.browser.json("DELETE", `/api/oauth/me/consents/${rp.client_id}`);
    expect(res).toMatchObject({ status: 200, data: { ok: true } });
    expect((await withToken(app, tokens.access_token)("GET", "/api/oauth/userinfo")).status).toBe(401);
    const refreshed = await postForm(
      app,
      TOKEN,
      { grant_type: "refresh_token", refresh_token: tokens.refresh_token as string },
      { basic: [rp.client_id, rp.client_secret] },
    );
    expect(refreshed.data.error).toBe("invalid_grant");
    expect((await bob.browser.json("GET", "/api/oauth/me/consents")).data.consents.some((c: { client_id: string }) => c.client_id === rp.client_id)).toBe(
      false,
    );
    await startConsent(bob, rp, "openid offline_access");
  });

  it("revoking touches only that user and that app", async () => {
    const rp = await confidentialApp(app, admin);
    const otherApp = await confidentialApp(app, admin);
    const alices = await obtainTokensRaw(app, alice, rp, "openid");
    const bobsOther = await obtainTokensRaw(app, bob, otherApp, "openid");
    await obtainTokensRaw(app, bob, rp, "openid");
    await bob.browser.json("DELETE", `/api/oauth/me/consents/${rp.client_id}`);
    expect((await withToken(app, alices.access_token)("GET", "/api/oauth/userinfo")).status).toBe(200);
    expect((await withToken(app, bobsOther.access_token)("GET", "/api/oauth/userinfo")).status).toBe(200);
  });

  it("an app the user never authorized is 404", async () => {
    expect((await bob.browser.json("DELETE", "/api/oauth/me/consents/no-such-app")).status).toBe(404);
  });

  it("is for the signed-in user only: an access token cannot list or revoke consents", async () => {
    const rp = await confidentialApp(app, admin);
    const tokens = await obtainTokensRaw(app, bob, rp, "openid profile");
    const asApp = withToken(app, tokens.access_token);
    expect((await asApp("GET", "/api/oauth/me/consents")).status).toBe(403);
    expect((await asApp("DELETE", `/api/oauth/me/consents/${rp.client_id}`)).status).toBe(403);
    expect((await withToken(app, tokens.access_token)("GET", "/api/oauth/userinfo")).status).toBe(200);
  });
});
