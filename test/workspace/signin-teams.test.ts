import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { CONFIRM_EVERY_MS, FRESH_ON_DEMAND_MS } from "../../src/workspace/session/session-check.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { manualClock } from "../helpers/clock.ts";
import { signUp, type SignedUp } from "../helpers/identity.ts";
import { ensureSetup, teamOwner, workspaceSignIn } from "../helpers/workspace.ts";

// ARCHITECTURE section 4, "Workspace sign-in": the workspace learns teams from the `teams` claim at
// sign-in, then from the IdP's team API. A team created, joined, left or deleted at the IdP after
// sign-in reaches the workspace without signing in again. The clock is moved by hand: the bounds
// are exact, never waited for.
const clock = manualClock();
let app: TestApp;
beforeAll(async () => {
  app = await startApp({ overrides: { clock } });
  await signUp(app, "admin");
  await ensureSetup(app);
});
afterAll(() => app.stop());

type Team = { id: string; name: string; role: string; groups: string[] };
const teamsOf = async (user: SignedUp): Promise<Team[]> => {
  const me = await user.browser.json("GET", "/api/workspace/me");
  expect(me.status).toBe(200);
  return me.data.teams;
};
const createTeam = async (user: SignedUp, name: string): Promise<string> => {
  const res = await user.bearer("POST", "/api/oauth/me/teams", { name });
  expect(res.status).toBe(201);
  return res.data.team.id;
};
const setsStatus = async (user: SignedUp, teamId: string) => (await user.browser.json("GET", `/api/teams/${teamId}/sets`)).status;

describe("a team created at the IdP after the workspace sign-in", () => {
  it("is listed by GET /api/workspace/me when the workspace opens, and its sets endpoints accept its owner", async () => {
    const { user: olga } = await teamOwner(app, "olga");
    clock.advance(FRESH_ON_DEMAND_MS);
    const id = await createTeam(olga, "Allotment");
    expect(await teamsOf(olga)).toContainEqual({ id, name: "Allotment", role: "owner", groups: [] });
    expect(await setsStatus(olga, id)).toBe(200);
    const created = await olga.browser.json("POST", `/api/teams/${id}/sets`, { name: "Seeds" });
    expect(created.status).toBe(201);
  });

  it("opens directly, with no page load first (an API client, a link to the team)", async () => {
    const { user: paula } = await teamOwner(app, "paula");
    clock.advance(FRESH_ON_DEMAND_MS);
    const id = await createTeam(paula, "Choir");
    expect(await setsStatus(paula, id)).toBe(200);
    expect((await teamsOf(paula)).map((t) => t.name)).toEqual(["Choir", "Household"]);
  });

  it("shows within the usual bound when the IdP was asked less than a few seconds before", async () => {
    const { user: rita } = await teamOwner(app, "rita");
    const id = await createTeam(rita, "Book club");
    // Asked at sign-in just now: one session makes the workspace ask at most every few seconds.
    expect((await teamsOf(rita)).some((t) => t.id === id)).toBe(false);
    clock.advance(FRESH_ON_DEMAND_MS);
    expect((await teamsOf(rita)).some((t) => t.id === id)).toBe(true);
  });

  it("joins the realtime stream of the new team", async () => {
    const { user: sara } = await teamOwner(app, "sara");
    clock.advance(FRESH_ON_DEMAND_MS);
    const id = await createTeam(sara, "Band");
    const abort = new AbortController();
    try {
      const res = await fetch(`${app.url}/api/realtime/sse?teamId=${id}`, {
        headers: { cookie: `cairn_ws=${sara.browser.cookies.get("cairn_ws")}` },
        signal: abort.signal,
      });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toStartWith("text/event-stream");
    } finally {
      abort.abort();
    }
  });
});

describe("being added to a team that exists, and a team deleted, at the IdP after the workspace sign-in", () => {
  it("lets a member added after sign-in in, with the role given", async () => {
    const { user: olive, team } = await teamOwner(app, "olive");
    const pete = await signUp(app, "pete");
    await workspaceSignIn(app, pete);
    clock.advance(FRESH_ON_DEMAND_MS);
    expect((await olive.bearer("POST", `/api/oauth/me/teams/${team.id}/members`, { username: "pete", role: "admin" })).status).toBe(201);
    const sets = await pete.browser.json("GET", `/api/teams/${team.id}/sets`);
    expect({ status: sets.status, role: sets.data.role }).toEqual({ status: 200, role: "admin" });
    expect(await teamsOf(pete)).toContainEqual({ id: team.id, name: "Household", role: "admin", groups: [] });
  });

  it("drops a deleted team on the next page load, and everywhere within the bound of a removal", async () => {
    const { user: quinn } = await teamOwner(app, "quinn");
    clock.advance(FRESH_ON_DEMAND_MS);
    const listed = await createTeam(quinn, "Short-lived");
    expect(await setsStatus(quinn, listed)).toBe(200);
    expect((await quinn.bearer("DELETE", `/api/oauth/me/teams/${listed}`)).status).toBe(200);

    clock.advance(FRESH_ON_DEMAND_MS);
    expect((await teamsOf(quinn)).map((t) => t.id)).not.toContain(listed);
    expect(await setsStatus(quinn, listed)).toBe(403);

    // No page load in between: the confirmation every workspace call is bound by.
    const { user: ruth } = await teamOwner(app, "ruth");
    clock.advance(FRESH_ON_DEMAND_MS);
    const gone = await createTeam(ruth, "Gone soon");
    expect(await setsStatus(ruth, gone)).toBe(200);
    expect((await ruth.bearer("DELETE", `/api/oauth/me/teams/${gone}`)).status).toBe(200);
    clock.advance(CONFIRM_EVERY_MS);
    expect(await setsStatus(ruth, gone)).toBe(403);
  });
});
