import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import * as client from "openid-client";
import { readSetting } from "../../src/db/settings.repo.ts";
import { ensureWorkspaceClient } from "../../src/settings/init/workspace-client.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { signUp, type SignedUp } from "../helpers/identity.ts";
import { discover, REDIRECT, registerApp } from "../helpers/oauth.ts";
import { ensureSetup } from "../helpers/workspace.ts";
import { authorizePath, interactionIdOf, pkce, visit } from "./oauth.fixtures.ts";

let app: TestApp;
let admin: SignedUp;
let member: SignedUp;
let workspaceClientId: string;
beforeAll(async () => {
  app = await startApp();
  admin = await signUp(app, "admin"); // the instance's first account: its admin
  member = await signUp(app, "member");
  await ensureSetup(app);
  workspaceClientId = ((await readSetting<{ idp_client_id: string }>(app.ctx.db, "app_config")) as { idp_client_id: string }).idp_client_id;
});
afterAll(() => app.stop());

const pathOf = (location: string) => new URL(location, app.url).pathname + new URL(location, app.url).search;

/** The workspace's client as openid-client sees it (public, PKCE), and its callback. */
async function workspaceAuthorization(extra: Record<string, string> = {}) {
  const config = await discover(app, workspaceClientId, undefined);
  const verifier = client.randomPKCECodeVerifier();
  const redirect_uri = `${app.url}/api/workspace/callback`;
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri,
    scope: "openid profile teams:read",
    state: "s1",
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
    ...extra,
  });
  return { config, verifier, redirect_uri, url };
}

describe("issue 42: the instance's own workspace app is first-party", () => {
  it("gets a code without a consent interaction, redeemable by openid-client; the implied consent is recorded", async () => {
    const { config, verifier, redirect_uri, url } = await workspaceAuthorization();
    const answer = await member.browser.fetch(pathOf(url.href));
    const location = answer.headers.get("location") as string;
    expect(location).toStartWith(`${redirect_uri}?`);
    const tokens = await client.authorizationCodeGrant(config, new URL(location), { expectedState: "s1", pkceCodeVerifier: verifier }, { redirect_uri });
    expect(tokens.claims()?.sub).toBe(member.user.id);
    const consents = (await member.browser.json("GET", "/api/oauth/me/consents")).data.consents as { client_id: string; is_verified: boolean }[];
    expect(consents.find((c) => c.client_id === workspaceClientId)).toMatchObject({ is_verified: true });
  });

  it("still asks with prompt=consent (OIDC Core section 3.1.2.1)", async () => {
    const { url } = await workspaceAuthorization({ prompt: "consent" });
    const location = (await member.browser.fetch(pathOf(url.href))).headers.get("location") as string;
    expect(location).toStartWith("/consent?interaction=");
  });

  it("an app registered alike by anyone else is not: it asks for consent, and setup never takes it for the workspace's", async () => {
    const callback = `${app.url}/api/workspace/callback`;
    const impostor = await registerDynamically(member, { client_name: "Cairn workspace", redirect_uris: [callback] });
    expect(await ensureWorkspaceClient(app.ctx, callback)).toBe(workspaceClientId);
    const { challenge } = await pkce();
    const params = {
      client_id: impostor.client_id,
      redirect_uri: callback,
      response_type: "code",
      scope: "openid",
      code_challenge: challenge,
      code_challenge_method: "S256",
    };
    expect((await visit(member, authorizePath(params))).location).toStartWith("/consent?interaction=");
  });
});

async function registerDynamically(by: SignedUp, body: Record<string, unknown> = {}) {
  const res = await fetch(`${app.url}/api/oauth/register`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${by.token}` },
    body: JSON.stringify({ client_name: "Dynamic app", redirect_uris: [REDIRECT], token_endpoint_auth_method: "none", ...body }),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { client_id: string };
}

describe("issue 42: apps a site admin registers start verified", () => {
  it("from the dashboard and from the catalog; the consent page's data says so", async () => {
    const byHand = await registerApp(admin);
    expect(byHand.is_verified).toBe(true);
    const fromCatalog = await admin.browser.json("POST", "/api/oauth/me/integrations/grafana", { base_url: "https://grafana.example.com" });
    expect({ status: fromCatalog.status, verified: fromCatalog.data.is_verified }).toEqual({ status: 201, verified: true });

    const consent = await visit(member, authorizePath({ client_id: byHand.client_id, redirect_uri: REDIRECT, response_type: "code", scope: "openid" }));
    const id = interactionIdOf(consent.location as string);
    expect((await member.browser.json("GET", `/api/oauth/interaction/${id}`)).data.client).toMatchObject({ client_id: byHand.client_id, is_verified: true });
  });

  it("not when a member registers one, nor an admin's token or dynamic registration", async () => {
    expect((await registerApp(member)).is_verified).toBe(false);
    const pat = (await admin.browser.json("POST", "/api/oauth/me/tokens", { name: "apps", scopes: ["apps:write"] })).data.secret as string;
    const byToken = await admin.browser.json(
      "POST",
      "/api/oauth/me/clients",
      { name: "By token", redirect_uris: [{ uri: REDIRECT, match: "equals" }] },
      { authorization: `Bearer ${pat}`, cookie: "" },
    );
    expect({ status: byToken.status, verified: byToken.data.is_verified }).toEqual({ status: 201, verified: false });
    const dynamic = await registerDynamically(admin);
    const row = await app.ctx.oauth.clients.find(dynamic.client_id);
    expect({ verified: row?.isVerified, firstParty: row?.firstParty }).toEqual({ verified: false, firstParty: false });
  });
});
