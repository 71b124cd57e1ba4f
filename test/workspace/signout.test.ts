import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { decodeJwt } from "jose";
import { readSetting, writeSetting } from "../../src/db/settings.repo.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { signUp, type SignedUp } from "../helpers/identity.ts";
import { ensureSetup, workspaceSignIn } from "../helpers/workspace.ts";

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
  await signUp(app, "admin");
  await ensureSetup(app);
});
afterAll(() => app.stop());

const pathOf = (location: string) => {
  const url = new URL(location, app.url);
  return url.pathname + url.search;
};

/** Where opening the workspace again leads: `/login…` when it asks for a sign-in, else the callback. */
async function reopenWorkspace(user: SignedUp): Promise<string> {
  const start = await user.browser.fetch("/api/workspace/login?return_to=/w");
  return (await user.browser.fetch(pathOf(start.headers.get("location") as string))).headers.get("location") as string;
}

describe("issue 42: one Sign out ends the workspace session and the identity provider's", () => {
  it("answers the IdP's RP-initiated logout with the ID token hint and the signed-out home; after it, /w asks for a sign-in", async () => {
    const ann = await signUp(app, "ann");
    await workspaceSignIn(app, ann);
    const out = await ann.browser.json("POST", "/api/workspace/logout");
    expect(out.status).toBe(200);
    expect(out.headers.get("cache-control")).toBe("no-store");
    const logout = new URL(out.data.redirect_to);
    const clientId = ((await readSetting<{ idp_client_id: string }>(app.ctx.db, "app_config")) as { idp_client_id: string }).idp_client_id;
    expect(logout.origin + logout.pathname).toBe(`${app.url}/api/oauth/end_session`);
    expect(logout.searchParams.get("client_id")).toBe(clientId);
    expect(logout.searchParams.get("post_logout_redirect_uri")).toBe(`${app.url}/`);
    expect(decodeJwt(logout.searchParams.get("id_token_hint") as string)).toMatchObject({ sub: ann.user.id, aud: clientId });
    expect((await ann.browser.json("GET", "/api/workspace/me")).status).toBe(401);

    // The browser follows it: the hint names the signed-in user, so the IdP signs out without asking.
    const end = await ann.browser.fetch(pathOf(logout.href));
    expect({ status: end.status, location: end.headers.get("location") }).toEqual({ status: 302, location: `${app.url}/` });
    expect((await ann.browser.json("GET", "/api/auth/session")).status).toBe(401);
    expect(await reopenWorkspace(ann)).toStartWith("/login?");
  });

  it("the IdP's own Sign out (the user menu) ends the workspace session made from it", async () => {
    const bea = await signUp(app, "bea");
    await workspaceSignIn(app, bea);
    expect((await bea.browser.json("POST", "/api/auth/logout")).status).toBe(200);
    expect((await bea.browser.json("GET", "/api/workspace/me")).status).toBe(401);
    expect(await reopenWorkspace(bea)).toStartWith("/login?");
  });

  it("without a workspace session there is no IdP logout to send the browser to", async () => {
    const cat = await signUp(app, "cat");
    const out = await cat.browser.json("POST", "/api/workspace/logout");
    expect({ status: out.status, data: out.data }).toEqual({ status: 200, data: { ok: true, redirect_to: null } });
    expect((await cat.browser.json("GET", "/api/auth/session")).status).toBe(200);
  });

  it("refuses a cross-site sign-out and changes nothing", async () => {
    const dan = await signUp(app, "dan");
    await workspaceSignIn(app, dan);
    const res = await dan.browser.json("POST", "/api/workspace/logout", undefined, { origin: "https://evil.example" });
    expect(res.status).toBe(403);
    expect((await dan.browser.json("GET", "/api/workspace/me")).status).toBe(200);
  });

  it("leaves out a hint too long for a URL (many teams): the IdP then asks the person to confirm", async () => {
    const fay = await signUp(app, "fay");
    for (let i = 0; i < 40; i++) await fay.browser.json("POST", "/api/oauth/me/teams", { name: `Team number ${i} with a longer name` });
    await workspaceSignIn(app, fay);
    const logout = new URL((await fay.browser.json("POST", "/api/workspace/logout")).data.redirect_to);
    expect(logout.searchParams.has("id_token_hint")).toBe(false);
    expect(logout.searchParams.get("post_logout_redirect_uri")).toBe(`${app.url}/`);
    const end = await fay.browser.fetch(pathOf(logout.href));
    expect(end.headers.get("location")).toStartWith("/logout?client_id=");
    expect((await fay.browser.json("GET", "/api/auth/session")).status).toBe(200);
  });

  it("ends the workspace session even when the IdP cannot be reached, and says there is no IdP logout", async () => {
    const eve = await signUp(app, "eve");
    await workspaceSignIn(app, eve);
    const config = (await readSetting<Record<string, unknown>>(app.ctx.db, "app_config")) as Record<string, unknown>;
    await writeSetting(app.ctx.db, app.ctx.clock, "app_config", { ...config, idp_base_url: "http://127.0.0.1:9" });
    try {
      const out = await eve.browser.json("POST", "/api/workspace/logout");
      expect({ status: out.status, data: out.data }).toEqual({ status: 200, data: { ok: true, redirect_to: null } });
      expect((await eve.browser.json("GET", "/api/workspace/me")).status).toBe(401);
    } finally {
      await writeSetting(app.ctx.db, app.ctx.clock, "app_config", config);
    }
  });
});
