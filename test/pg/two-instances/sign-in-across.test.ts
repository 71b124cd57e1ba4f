import { describe, expect, it } from "bun:test";
import * as client from "openid-client";
import { type ProxyKind, proxyVersion } from "../../helpers/proxies.ts";
import { registerApp } from "../../helpers/oauth.ts";
import { authorizeCode } from "../../oauth/oauth.fixtures.ts";
import { ensureSetup, workspaceSignIn } from "../../helpers/workspace.ts";
import { adminWithOpenRegistration, register, relyingPartyAt, signIn, type Target } from "./people.fixture.ts";
import { twoInstancesSkipReason, twoInstancesTestbed } from "./two-instances.fixture.ts";

// Issue 46: sign in through A; the session, the tokens and the workspace serve through B and
// through the balancer, as if there were one instance.
const KINDS: ProxyKind[] = ["nginx", "caddy"];

for (const kind of KINDS) {
  const skip = twoInstancesSkipReason(kind);
  if (skip) console.warn(`skipping the two-instance sign-in test behind ${kind}: ${skip}`);

  describe.skipIf(skip !== null)(`two instances behind ${kind} ${proxyVersion(kind)}`, () => {
    const bed = twoInstancesTestbed(kind);

    it("a sign-in through A: its session, code-flow tokens, refresh and workspace serve through B and through the balancer", async () => {
      const t = bed.current;
      const { a, b } = t;
      const lb: Target = { url: t.issuer };
      await t.explained(async () => {
        // Setup through the balancer: the first account is the admin; setup registers the workspace's client.
        const admin = await adminWithOpenRegistration(t);
        await ensureSetup({ url: t.issuer, json: admin.browser.json });
        expect((await admin.browser.json("GET", "/api/init/status")).data).toEqual({ configured: true });

        // Registration opened through the balancer is open on B at once; alice registers there, then signs in through A.
        const alice = await signIn(t, a, (await register(t, b, "alice")).user.username);

        // The session cookie A set: valid on B, and through the balancer on both instances.
        const session = async (target: Target) => alice.at(target).browser.json("GET", "/api/auth/session");
        expect(await session(b)).toMatchObject({ status: 200, data: { user: { id: alice.user.id, username: "alice" } } });
        const throughBalancer = await Promise.all([1, 2, 3, 4].map(() => alice.at(lb).browser.fetch("/api/auth/session")));
        expect(throughBalancer.map((r) => r.status)).toEqual([200, 200, 200, 200]);
        expect(new Set(await Promise.all(throughBalancer.map((r) => t.servedBy(r))))).toEqual(new Set(["A", "B"]));
        // The session token as a bearer credential on B.
        expect((await alice.at(b).bearer("GET", "/api/oauth/me")).data.user.id).toBe(alice.user.id);

        // An app registered through A is known to B at once: the code flow's authorization runs in
        // the browser at A, the code is redeemed at B, the ID token checked against B's JWKS.
        const app = await registerApp(admin.at(a), { grant_types: ["authorization_code", "refresh_token"] });
        const rpAt = (target: Target) => relyingPartyAt(t, target, app.client_id, app.client_secret);
        const [rpA, rpB, rpLb] = await Promise.all([rpAt(a), rpAt(b), rpAt(lb)]);
        const nonce = client.randomNonce();
        const { verifier, state, callback } = await authorizeCode(alice.at(a), { config: rpB }, "openid profile offline_access", { nonce });
        expect(callback.searchParams.get("iss")).toBe(t.issuer);
        const tokens = await client.authorizationCodeGrant(rpB, callback, { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce });
        expect(tokens.claims()).toMatchObject({ iss: t.issuer, sub: alice.user.id, aud: app.client_id, nonce });

        // The access token B issued: userinfo at A, at B and through the balancer; introspection at A.
        for (const rp of [rpA, rpB, rpLb]) expect((await client.fetchUserInfo(rp, tokens.access_token, alice.user.id)).sub).toBe(alice.user.id);
        expect(await client.tokenIntrospection(rpA, tokens.access_token)).toMatchObject({ active: true, sub: alice.user.id, client_id: app.client_id });

        // Refresh at B, then the rotated token through the balancer; A then takes the first token as the replay it is.
        const first = tokens.refresh_token as string;
        const second = await client.refreshTokenGrant(rpB, first);
        const third = await client.refreshTokenGrant(rpLb, second.refresh_token as string);
        expect((await client.fetchUserInfo(rpA, third.access_token, alice.user.id)).sub).toBe(alice.user.id);
        // B has it in memory now: the revocation below, made on A, must reach it at once.
        expect(await client.tokenIntrospection(rpB, third.access_token)).toMatchObject({ active: true, sub: alice.user.id });
        const replay = await client.refreshTokenGrant(rpA, first).then(
          () => "refreshed",
          (e: client.ResponseBodyError) => e.error,
        );
        expect(replay).toBe("invalid_grant");
        // The replay revoked the grant: what it issued last no longer works on B.
        expect(await client.tokenIntrospection(rpB, third.access_token)).toEqual({ active: false });

        // The workspace: signed in at A, used at B and through the balancer.
        const team = (await alice.at(b).browser.json("POST", "/api/oauth/me/teams", { name: "Household" })).data.team as { id: string };
        await workspaceSignIn(a, alice.at(a));
        const api = (target: Target, method: string, path: string, body?: unknown) =>
          alice.at(target).browser.json(method, `/api/teams/${team.id}${path}`, body);
        const made = await api(b, "POST", "/sets", { name: "Groceries" });
        expect(made.status).toBe(201);
        const setId = made.data.set.id as string;
        const milk = await api(lb, "POST", `/sets/${setId}/todos`, { title: "Milk" });
        expect(milk.status).toBe(201);
        const bread = await api(a, "POST", `/sets/${setId}/todos`, { title: "Bread" });
        expect(bread.status).toBe(201);
        for (const target of [a, b, lb]) {
          const listed = await api(target, "GET", `/sets/${setId}/todos`);
          expect({ status: listed.status, titles: listed.data.todos.map((todo: { title: string }) => todo.title).sort() }).toEqual({
            status: 200,
            titles: ["Bread", "Milk"],
          });
        }

        // Signing out through B ends the session on A at once.
        expect((await alice.at(b).browser.json("POST", "/api/auth/logout")).status).toBe(200);
        expect((await alice.at(a).bearer("GET", "/api/auth/session")).status).toBe(401);
      });
    }, 120_000);
  });
}
