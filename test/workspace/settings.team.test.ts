import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { DEFAULT_TEAM_SETTINGS } from "../../src/settings/team-settings/team-settings.repo.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { signUp, type SignedUp } from "../helpers/identity.ts";
import { teamOwner, workspaceSignIn } from "../helpers/workspace.ts";

let app: TestApp;
let alice: SignedUp;
let teamId: string;
let admin: SignedUp;
let member: SignedUp;
let stranger: SignedUp;

async function addMember(username: string, role: string) {
  const user = await signUp(app, username);
  const res = await alice.browser.json("POST", `/api/oauth/me/teams/${teamId}/members`, { username, role });
  expect(res.status).toBeLessThan(300);
  await workspaceSignIn(app, user);
  return user;
}

beforeAll(async () => {
  app = await startApp();
  const owner = await teamOwner(app, "alice");
  alice = owner.user;
  teamId = owner.team.id;
  admin = await addMember("adam", "admin");
  member = await addMember("mia", "member");
  stranger = (await teamOwner(app, "sam", "Elsewhere")).user;
});
afterAll(() => app.stop());

const url = () => `/api/teams/${teamId}/settings`;

describe("spec 3 section 4.2 GET /api/teams/:teamId/settings", () => {
  it("answers 401 Unauthorized without a workspace session", async () => {
    const res = await app.client().json("GET", url());
    expect(res).toMatchObject({ status: 401, data: { error: "Unauthorized" } });
  });

  it("answers 403 Forbidden to a signed-in user who is not a member", async () => {
    const res = await stranger.browser.json("GET", url());
    expect(res).toMatchObject({ status: 403, data: { error: "Forbidden" } });
  });

  it("gives a team that never saved every default (section 2.3)", async () => {
    const res = await member.browser.json("GET", url());
    expect(res.status).toBe(200);
    expect(res.data).toEqual({
      settings: {
        site_name: "Cairn",
        site_logo_url: "",
        accent_color: "",
        default_set_name: "Inbox",
        allow_member_create_sets: false,
        default_timezone: "UTC",
      },
    });
  });

  it("works for the caller's personal space, and refuses another user's", async () => {
    const own = await alice.browser.json("GET", `/api/teams/personal:${alice.user.id}/settings`);
    expect(own).toMatchObject({ status: 200, data: { settings: DEFAULT_TEAM_SETTINGS } });
    const other = await member.browser.json("GET", `/api/teams/personal:${alice.user.id}/settings`);
    expect(other).toMatchObject({ status: 403, data: { error: "Forbidden" } });
  });
});

describe("spec 3 section 4.2 PATCH /api/teams/:teamId/settings", () => {
  it("answers 401 Unauthorized without a workspace session", async () => {
    const res = await app.client().json("PATCH", url(), { site_name: "X" }, { origin: app.url });
    expect(res).toMatchObject({ status: 401, data: { error: "Unauthorized" } });
  });

  it("answers 403 Forbidden to a member or an admin lacking manage_settings, and to a non-member", async () => {
    for (const user of [member, admin, stranger]) {
      const res = await user.browser.json("PATCH", url(), { site_name: "Hijacked" });
      expect(res).toMatchObject({ status: 403, data: { error: "Forbidden" } });
    }
    expect((await alice.browser.json("GET", url())).data.settings.site_name).toBe("Cairn");
  });

  it("changes only the given fields and answers the full object; unknown keys are ignored", async () => {
    const res = await alice.browser.json("PATCH", url(), { site_name: "Our Home", accent_color: "#336699", surprise: 1 });
    expect(res.status).toBe(200);
    expect(res.data).toEqual({ settings: { ...DEFAULT_TEAM_SETTINGS, site_name: "Our Home", accent_color: "#336699" } });
    const next = await alice.browser.json("PATCH", url(), {
      allow_member_create_sets: true,
      default_timezone: "Europe/Berlin",
      site_logo_url: "https://example.com/logo.png",
      default_set_name: "Errands",
    });
    expect(next.data.settings).toEqual({
      site_name: "Our Home",
      site_logo_url: "https://example.com/logo.png",
      accent_color: "#336699",
      default_set_name: "Errands",
      allow_member_create_sets: true,
      default_timezone: "Europe/Berlin",
    });
    expect((await member.browser.json("GET", url())).data).toEqual(next.data);
  });

  it("resets site_logo_url and accent_color with an empty string", async () => {
    const res = await alice.browser.json("PATCH", url(), { site_logo_url: "", accent_color: "" });
    expect(res.status).toBe(200);
    expect(res.data.settings).toMatchObject({ site_logo_url: "", accent_color: "" });
  });

  it.each([
    ["site_name empty", { site_name: "" }],
    ["site_name blank", { site_name: "   " }],
    ["site_name not a string", { site_name: 5 }],
    ["default_set_name empty", { default_set_name: "" }],
    ["site_logo_url not a URL", { site_logo_url: "not a url" }],
    ["site_logo_url not http(s)", { site_logo_url: "javascript:alert(1)" }],
    ["accent_color not a colour", { accent_color: "notacolor" }],
    ["allow_member_create_sets not a boolean", { allow_member_create_sets: "yes" }],
    ["default_timezone not IANA", { default_timezone: "Mars/Olympus" }],
    ["default_timezone an offset", { default_timezone: "+05:30" }],
  ])("answers 400 Invalid request for %s, changing nothing", async (_name, body) => {
    const before = (await alice.browser.json("GET", url())).data;
    const res = await alice.browser.json("PATCH", url(), { site_name: "Changed?", ...body });
    expect(res).toMatchObject({ status: 400, data: { error: "Invalid request" } });
    expect((await alice.browser.json("GET", url())).data).toEqual(before);
  });

  it("answers 400 Invalid request for malformed JSON", async () => {
    const res = await alice.browser.json("PATCH", url(), "{not json");
    expect(res).toMatchObject({ status: 400, data: { error: "Invalid request" } });
  });

  it("lets an admin through once the matrix grants manage_settings", async () => {
    const grant = await alice.browser.json("PUT", `/api/teams/${teamId}/permissions`, { admin: { manage_settings: true } });
    expect(grant.status).toBe(200);
    const res = await admin.browser.json("PATCH", url(), { site_name: "By admin" });
    expect(res).toMatchObject({ status: 200, data: { settings: { site_name: "By admin" } } });
  });

  it("lets the owner in even when the matrix takes manage_settings away (no lock-out)", async () => {
    await alice.browser.json("PUT", `/api/teams/${teamId}/permissions`, { owner: { manage_settings: false } });
    const res = await alice.browser.json("PATCH", url(), { site_name: "Still mine" });
    expect(res).toMatchObject({ status: 200, data: { settings: { site_name: "Still mine" } } });
    await alice.browser.json("PUT", `/api/teams/${teamId}/permissions`, {});
  });

  it("saves settings for a personal space, apart from the team's", async () => {
    const personal = `/api/teams/personal:${member.user.id}/settings`;
    const res = await member.browser.json("PATCH", personal, { default_timezone: "Asia/Tokyo" });
    expect(res).toMatchObject({ status: 200, data: { settings: { ...DEFAULT_TEAM_SETTINGS, default_timezone: "Asia/Tokyo" } } });
    expect((await member.browser.json("GET", personal)).data.settings.default_timezone).toBe("Asia/Tokyo");
    expect((await alice.browser.json("PATCH", personal, { site_name: "Not yours" })).status).toBe(403);
  });
});

describe("spec 3 section 2.2: GET /api/init/branding follows the owner team's settings", () => {
  it("answers the owner team's site_name and site_logo_url once owner_team_id names it", async () => {
    const patched = await alice.browser.json("PATCH", url(), { site_name: "Family Hub", site_logo_url: "https://example.com/logo.png" });
    expect(patched.status).toBe(200);
    expect((await app.json("GET", "/api/init/branding")).data).toEqual({ site_name: "Cairn", site_logo_url: "" });
    const config = await alice.browser.json("PUT", "/api/init/config", { owner_team_id: teamId });
    expect(config.status).toBe(200);
    expect((await app.json("GET", "/api/init/branding")).data).toEqual({ site_name: "Family Hub", site_logo_url: "https://example.com/logo.png" });
  });
});
