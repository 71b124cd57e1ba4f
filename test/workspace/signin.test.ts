import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { readSetting, writeSetting } from "../../src/db/settings.repo.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { signUp, type SignedUp } from "../helpers/identity.ts";

let app: TestApp;
let alice: SignedUp;
let teamId: string;
beforeAll(async () => {
  app = await startApp();
  alice = await signUp(app, "alice", { name: "Alice" });
  expect((await app.json("POST", "/api/init/setup")).status).toBe(200);
  teamId = (await alice.browser.json("POST", "/api/oauth/me/teams", { name: "Household" })).data.team.id;
});
afterAll(() => app.stop());

const pathOf = (location: string) => {
  const url = new URL(location, app.url);
  return url.pathname + url.search;
};

/** Walks the browser through workspace sign-in: login, the IdP's consent, the callback. */
async function signInToWorkspace(user: SignedUp, returnTo = "/w/household") {
  const start = await user.browser.fetch(`/api/workspace/login?return_to=${encodeURIComponent(returnTo)}`);
  expect(start.status).toBe(302);
  const authorize = start.headers.get("location") as string;
  expect(authorize).toStartWith(`${app.url}/api/oauth/authorize?`);
  expect(new URL(authorize).searchParams.get("code_challenge_method")).toBe("S256");
  let next = (await user.browser.fetch(pathOf(authorize))).headers.get("location") as string;
  if (next.startsWith("/consent")) {
    const id = new URL(next, app.url).searchParams.get("interaction") as string;
    next = (await user.browser.json("POST", `/api/oauth/interaction/${id}`, { decision: "approve" })).data.redirect_to;
  }
  expect(next).toStartWith(`${app.url}/api/workspace/callback?`);
  return user.browser.fetch(pathOf(next));
}

describe("workspace sign-in through the IdP (ARCHITECTURE section 4)", () => {
  it("signs in as a relying party: the ID token's teams become the workspace's", async () => {
    const callback = await signInToWorkspace(alice);
    expect(callback.status).toBe(302);
    expect(callback.headers.get("location")).toBe("/w/household");
    expect(callback.headers.get("set-cookie")).toContain("cairn_ws=");
    const me = await alice.browser.json("GET", "/api/workspace/me");
    expect(me.status).toBe(200);
    expect(me.data.user).toMatchObject({ username: "alice", name: "Alice", email: "alice@example.com", id: alice.user.id });
    expect(me.data.teams).toEqual([{ id: teamId, name: "Household", role: "owner", groups: [] }]);
  });

  it("answers 401 without a workspace session, and ends it on logout", async () => {
    expect((await app.client().json("GET", "/api/workspace/me")).status).toBe(401);
    const bob = await signUp(app, "bob");
    await signInToWorkspace(bob);
    expect((await bob.browser.json("GET", "/api/workspace/me")).status).toBe(200);
    expect((await bob.browser.json("POST", "/api/workspace/logout")).data).toMatchObject({ ok: true, redirect_to: expect.any(String) });
    expect((await bob.browser.json("GET", "/api/workspace/me")).status).toBe(401);
  });

  it("uses each sign-in state once and never returns to another site", async () => {
    const carol = await signUp(app, "carol");
    const start = await carol.browser.fetch("/api/workspace/login?return_to=//evil.example/x");
    const authorize = start.headers.get("location") as string;
    // The built-in workspace app is first-party: no consent, straight back with a code.
    const callback = (await carol.browser.fetch(pathOf(authorize))).headers.get("location") as string;
    const first = await carol.browser.fetch(pathOf(callback));
    expect(first.headers.get("location")).toBe("/w");
    const again = await carol.browser.fetch(pathOf(callback));
    expect(again.status).toBe(400);
    expect(await again.text()).toContain("Sign-in could not be completed");
  });

  it("refuses with a clear page a user outside the allowed team", async () => {
    const config = (await readSetting<Record<string, unknown>>(app.ctx.db, "app_config")) as Record<string, unknown>;
    await writeSetting(app.ctx.db, app.ctx.clock, "app_config", { ...config, allowed_team_id: teamId });
    try {
      const dave = await signUp(app, "dave");
      const res = await signInToWorkspace(dave);
      expect(res.status).toBe(403);
      expect(await res.text()).toContain("This workspace is for one team only");
      expect((await dave.browser.json("GET", "/api/workspace/me")).status).toBe(401);
      expect((await signInToWorkspace(alice)).status).toBe(302); // a member still gets in
    } finally {
      await writeSetting(app.ctx.db, app.ctx.clock, "app_config", config);
    }
  });
});

describe("before setup", () => {
  it("explains that the workspace is not set up yet", async () => {
    const fresh = await startApp();
    try {
      const res = await fresh.fetch("/api/workspace/login");
      expect(res.status).toBe(409);
      expect(await res.text()).toContain("not set up yet");
    } finally {
      await fresh.stop();
    }
  });
});
