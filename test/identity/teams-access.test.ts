import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { startApp, type TestApp } from "../helpers/app.ts";
import { type SignedUp, signUp } from "../helpers/identity.ts";
import { makeTeam, patClient, snapshotTeams, TEAMS } from "./teams.fixtures.ts";

let app: TestApp;
let owner: SignedUp, other: SignedUp;
let team: string;
beforeAll(async () => {
  app = await startApp();
  owner = await signUp(app, "owner");
  other = await signUp(app, "other");
  team = await makeTeam(owner, "Scoped");
});
afterAll(() => app.stop());

describe("spec 1 section 2.3: aggregate teams:* scopes on personal access tokens", () => {
  it("reads with teams:read but is refused a write with 403 insufficient_scope", async () => {
    const pat = await patClient(app, owner, ["teams:read"]);
    expect((await pat("GET", TEAMS)).data.teams.map((t: { id: string }) => t.id)).toEqual([team]);
    expect((await pat("GET", `${TEAMS}/${team}`)).status).toBe(200);
    const before = await snapshotTeams(app);
    for (const [method, path, body] of [
      ["PATCH", `${TEAMS}/${team}`, { name: "Hijacked" }],
      ["POST", `${TEAMS}/${team}/members`, { username: "other", role: "member" }],
      ["POST", `${TEAMS}/${team}/groups`, { slug: "ops", name: "Ops" }],
    ] as const) {
      const res = await pat(method, path, body);
      expect(res.status).toBe(403);
      expect(res.data.error).toBe("insufficient_scope");
      expect(res.headers.get("www-authenticate")).toContain('scope="teams:write"');
    }
    expect(await snapshotTeams(app)).toEqual(before);
  });

  it("needs teams:create to create and teams:delete to delete", async () => {
    const pat = await patClient(app, owner, ["teams:read", "teams:write"]);
    expect((await pat("POST", TEAMS, { name: "New" })).data.error).toBe("insufficient_scope");
    expect((await pat("DELETE", `${TEAMS}/${team}`)).data.error).toBe("insufficient_scope");
    expect((await pat("PATCH", `${TEAMS}/${team}`, { name: "Renamed by token" })).status).toBe(200);
    const creator = await patClient(app, owner, ["teams:create"]);
    const created = await creator("POST", TEAMS, { name: "By token" });
    expect(created.status).toBe(201);
    expect((await creator("GET", TEAMS)).data.error).toBe("insufficient_scope");
    const deleter = await patClient(app, owner, ["teams:delete"]);
    expect((await deleter("DELETE", `${TEAMS}/${created.data.team.id}`)).data).toEqual({ ok: true });
  });

  it("still applies the team role to a token holding the scope", async () => {
    const pat = await patClient(app, other, ["teams:read", "teams:write", "teams:delete"]);
    expect((await pat("GET", `${TEAMS}/${team}`)).status).toBe(404);
    expect((await pat("DELETE", `${TEAMS}/${team}`)).status).toBe(404);
  });
});

describe("ARCHITECTURE section 3: cookie writes need this site's Origin", () => {
  const cookieOf = (who: SignedUp) => [...who.browser.cookies].map(([k, v]) => `${k}=${v}`).join("; ");

  it("refuses a cookie-authenticated write without an Origin header", async () => {
    const before = await snapshotTeams(app);
    const res = await fetch(`${app.url}${TEAMS}/${team}`, {
      method: "PATCH",
      headers: { cookie: cookieOf(owner), "content-type": "application/json" },
      body: JSON.stringify({ name: "Forged" }),
    });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ error: "forbidden", error_description: expect.stringContaining("Origin") });
    expect(await snapshotTeams(app)).toEqual(before);
  });

  it("refuses a cookie-authenticated write from a foreign Origin", async () => {
    const res = await owner.browser.json("POST", TEAMS, { name: "Forged" }, { origin: "https://evil.example" });
    expect(res.status).toBe(403);
  });

  it("lets the same cookie read without an Origin, and the site's own pages write", async () => {
    const read = await fetch(`${app.url}${TEAMS}`, { headers: { cookie: cookieOf(owner) } });
    expect(read.status).toBe(200);
    expect((await owner.browser.json("POST", TEAMS, { name: "From our page" })).status).toBe(201);
  });
});
