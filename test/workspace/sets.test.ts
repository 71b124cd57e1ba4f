import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { eq } from "drizzle-orm";
import { todoSets } from "../../src/workspace/storage/sets.table.ts";
import { teamSettings } from "../../src/settings/team-settings/team-and-user-settings.table.ts";
import { comments } from "../../src/workspace/storage/comments.table.ts";
import { todos } from "../../src/workspace/storage/todos.table.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { signUp, type SignedUp } from "../helpers/identity.ts";
import { teamOwner, workspaceSignIn } from "../helpers/workspace.ts";

let app: TestApp;
let alice: SignedUp;
let bob: SignedUp;
let teamId: string;
const base = () => `/api/teams/${teamId}/sets`;

async function writeTeamSettings(settings: Record<string, unknown>) {
  await app.ctx.db.insert(teamSettings).values({ teamId, settings, updatedAt: 0 }).onConflictDoUpdate({ target: teamSettings.teamId, set: { settings } }).run();
}
const setRow = (id: string) => app.ctx.db.select().from(todoSets).where(eq(todoSets.id, id)).get();

beforeAll(async () => {
  app = await startApp();
  const owner = await teamOwner(app, "alice");
  alice = owner.user;
  teamId = owner.team.id;
  bob = await signUp(app, "bob");
  expect((await alice.browser.json("POST", `/api/oauth/me/teams/${teamId}/members`, { username: "bob", role: "member" })).status).toBeLessThan(300);
  await workspaceSignIn(app, bob);
});
afterAll(() => app.stop());

describe("spec 2 section 4.1 GET sets", () => {
  it("auto-creates the default set once, named by default_set_name, with counts and role", async () => {
    await writeTeamSettings({ default_set_name: "Errands" });
    const first = await alice.browser.json("GET", base());
    expect(first.status).toBe(200);
    expect(first.data.role).toBe("owner");
    expect(first.data.sets).toHaveLength(1);
    const set = first.data.sets[0];
    expect(set).toMatchObject({
      name: "Errands",
      sortOrder: 0,
      autoRenew: false,
      renewTime: "00:00",
      timezone: "",
      splitCompleted: false,
      lastRenewedAt: null,
      total: 0,
      completed: 0,
      pending: 0,
    });
    expect(new Date(set.createdAt).toISOString()).toBe(set.createdAt);
    const again = await bob.browser.json("GET", base());
    expect(again.data.role).toBe("member");
    expect(again.data.sets.map((s: { id: string }) => s.id)).toEqual([set.id]);
  });

  it("counts top-level todos only: total, completed, pending", async () => {
    const setId = (await alice.browser.json("GET", base())).data.sets[0].id;
    const content = "# X\n\n- [x] done\n  - [ ] child\n- [ ] open\n- [ ] open2\n";
    expect((await alice.browser.json("POST", `${base()}/${setId}/import`, { content })).data).toEqual({ ok: true, imported: 4 });
    const listed = (await alice.browser.json("GET", base())).data.sets[0];
    expect(listed).toMatchObject({ total: 3, completed: 1, pending: 2 });
  });

  it("refuses a caller outside the team and one without a session", async () => {
    const carol = await signUp(app, "carol");
    await workspaceSignIn(app, carol);
    expect(await carol.browser.json("GET", base())).toMatchObject({ status: 403, data: { error: "Forbidden" } });
    expect(await app.json("GET", base())).toMatchObject({ status: 401, data: { error: "Unauthorized" } });
  });
});

describe("spec 2 section 4.1 POST sets", () => {
  it("creates a set appended at the highest sortOrder + 1 (201 {set})", async () => {
    const created = await alice.browser.json("POST", base(), { name: "  Groceries " });
    expect(created.status).toBe(201);
    expect(created.data.set).toMatchObject({ name: "Groceries", sortOrder: 1 });
    expect(created.data.set.total).toBeUndefined();
  });

  it("answers 400 `Name is required` for an empty or missing name", async () => {
    expect(await alice.browser.json("POST", base(), { name: "  " })).toMatchObject({ status: 400, data: { error: "Name is required" } });
    expect(await alice.browser.json("POST", base(), {})).toMatchObject({ status: 400, data: { error: "Name is required" } });
  });

  it("answers 409 for a name already used in the team", async () => {
    expect(await alice.browser.json("POST", base(), { name: "Groceries" })).toMatchObject({
      status: 409,
      data: { error: "Todo list name already exists in this team" },
    });
  });

  it("refuses a member without manage_sets, unless allow_member_create_sets", async () => {
    expect(await bob.browser.json("POST", base(), { name: "Bob's" })).toMatchObject({ status: 403, data: { error: "No permission to manage sets" } });
    await writeTeamSettings({ default_set_name: "Errands", allow_member_create_sets: true });
    const created = await bob.browser.json("POST", base(), { name: "Bob's" });
    expect(created.status).toBe(201);
    await writeTeamSettings({ default_set_name: "Errands" });
  });
});

describe("spec 2 section 4.1 PATCH sets/:setId", () => {
  const idOf = async (name: string) => (await alice.browser.json("GET", base())).data.sets.find((s: { name: string }) => s.name === name).id as string;

  it("changes only the given fields", async () => {
    const id = await idOf("Groceries");
    const res = await alice.browser.json("PATCH", `${base()}/${id}`, { autoRenew: true, renewTime: "07:30", timezone: "Europe/Paris" });
    expect(res).toMatchObject({ status: 200, data: { ok: true } });
    expect(await setRow(id)).toMatchObject({ name: "Groceries", autoRenew: true, renewTime: "07:30", timezone: "Europe/Paris", splitCompleted: false });
    await alice.browser.json("PATCH", `${base()}/${id}`, { timezone: "", splitCompleted: true, name: "Food" });
    expect(await setRow(id)).toMatchObject({ name: "Food", autoRenew: true, timezone: "", splitCompleted: true });
  });

  it("answers 400 `No updates` with no recognized field", async () => {
    const id = await idOf("Food");
    expect(await alice.browser.json("PATCH", `${base()}/${id}`, {})).toMatchObject({ status: 400, data: { error: "No updates" } });
    expect(await alice.browser.json("PATCH", `${base()}/${id}`, { color: "red" })).toMatchObject({ status: 400, data: { error: "No updates" } });
  });

  it("answers 400 `Invalid request` for a bad renewTime, timezone or type, changing nothing", async () => {
    const id = await idOf("Food");
    const before = await setRow(id);
    for (const body of [
      { renewTime: "7:30" },
      { renewTime: "24:00" },
      { timezone: "Mars/Olympus" },
      { timezone: "+05:30" },
      { autoRenew: "yes" },
      { name: "X", renewTime: "bad" },
    ]) {
      expect(await alice.browser.json("PATCH", `${base()}/${id}`, body)).toMatchObject({ status: 400, data: { error: "Invalid request" } });
    }
    expect(await setRow(id)).toEqual(before);
  });

  it("answers `Name is required` and the 409 for names", async () => {
    const id = await idOf("Food");
    expect(await alice.browser.json("PATCH", `${base()}/${id}`, { name: " " })).toMatchObject({ status: 400, data: { error: "Name is required" } });
    expect(await alice.browser.json("PATCH", `${base()}/${id}`, { name: "Errands" })).toMatchObject({
      status: 409,
      data: { error: "Todo list name already exists in this team" },
    });
    expect(await alice.browser.json("PATCH", `${base()}/${id}`, { name: "Food" })).toMatchObject({ status: 200 });
  });

  it("lets the creator patch without manage_sets; refuses other members", async () => {
    const own = await idOf("Bob's");
    expect(await bob.browser.json("PATCH", `${base()}/${own}`, { splitCompleted: true })).toMatchObject({ status: 200 });
    const other = await idOf("Food");
    expect(await bob.browser.json("PATCH", `${base()}/${other}`, { splitCompleted: false })).toMatchObject({
      status: 403,
      data: { error: "No permission to manage sets" },
    });
  });

  it("answers 404 `Set not found` for an unknown set", async () => {
    expect(await alice.browser.json("PATCH", `${base()}/${crypto.randomUUID()}`, { name: "Z" })).toMatchObject({
      status: 404,
      data: { error: "Set not found" },
    });
  });
});

describe("ownership: a set is only found through its own team", () => {
  it("answers 404 for a set of another workspace, and keeps personal spaces separate", async () => {
    const teamSet = (await alice.browser.json("GET", base())).data.sets[0];
    const personal = `/api/teams/${encodeURIComponent(`personal:${teamSet.userId}`)}/sets`;
    const own = await alice.browser.json("GET", personal);
    // Issue 42: with no default_set_name saved, the first set is the Inbox.
    expect(own).toMatchObject({ status: 200, data: { role: "owner", sets: [{ name: "Inbox" }] } });
    expect(await alice.browser.json("PATCH", `${personal}/${teamSet.id}`, { name: "Stolen" })).toMatchObject({ status: 404, data: { error: "Set not found" } });
    expect(await alice.browser.json("DELETE", `${personal}/${teamSet.id}`)).toMatchObject({ status: 404, data: { error: "Set not found" } });
    expect((await setRow(teamSet.id))?.name).toBe(teamSet.name);
  });
});

describe("spec 2 section 4.1 POST sets/reorder", () => {
  it("applies the given sortOrders", async () => {
    const sets = (await alice.browser.json("GET", base())).data.sets as { id: string }[];
    const items = sets.map((s, i) => ({ id: s.id, sortOrder: sets.length - i }));
    expect(await alice.browser.json("POST", `${base()}/reorder`, { items })).toMatchObject({ status: 200, data: { ok: true } });
    const after = (await alice.browser.json("GET", base())).data.sets as { id: string }[];
    expect(after.map((s) => s.id)).toEqual([...sets].reverse().map((s) => s.id));
  });

  it("answers 400 `No items` for missing or empty items", async () => {
    expect(await alice.browser.json("POST", `${base()}/reorder`, {})).toMatchObject({ status: 400, data: { error: "No items" } });
    expect(await alice.browser.json("POST", `${base()}/reorder`, { items: [] })).toMatchObject({ status: 400, data: { error: "No items" } });
  });

  it("refuses a member without manage_sets, and an unknown id changes nothing", async () => {
    const sets = (await alice.browser.json("GET", base())).data.sets as { id: string; sortOrder: number }[];
    expect(await bob.browser.json("POST", `${base()}/reorder`, { items: [{ id: sets[0]?.id, sortOrder: 99 }] })).toMatchObject({
      status: 403,
      data: { error: "No permission to manage sets" },
    });
    const res = await alice.browser.json("POST", `${base()}/reorder`, {
      items: [
        { id: sets[0]?.id, sortOrder: 99 },
        { id: crypto.randomUUID(), sortOrder: 1 },
      ],
    });
    expect(res).toMatchObject({ status: 404, data: { error: "Set not found" } });
    expect((await setRow(sets[0]?.id as string))?.sortOrder).toBe(sets[0]?.sortOrder as number);
  });
});

describe("spec 2 section 4.1 DELETE sets/:setId", () => {
  it("refuses a member who neither manages sets nor created it: 403 `Forbidden`", async () => {
    const inbox = (await alice.browser.json("GET", base())).data.sets.find((s: { name: string }) => s.name === "Errands").id;
    expect(await bob.browser.json("DELETE", `${base()}/${inbox}`)).toMatchObject({ status: 403, data: { error: "Forbidden" } });
    expect(await setRow(inbox)).toBeDefined();
  });

  it("deletes the set with its todos, sub-todos and comments", async () => {
    const inbox = (await alice.browser.json("GET", base())).data.sets.find((s: { name: string }) => s.name === "Errands").id;
    const todoId = (await app.ctx.db.select().from(todos).where(eq(todos.setId, inbox)).all())[0]?.id as string;
    await app.ctx.db.insert(comments).values({ id: crypto.randomUUID(), todoId, teamId, userId: "x", body: "hi", createdAt: 0 }).run();
    expect(await alice.browser.json("DELETE", `${base()}/${inbox}`)).toMatchObject({ status: 200, data: { ok: true } });
    expect(await setRow(inbox)).toBeUndefined();
    expect(await app.ctx.db.select().from(todos).where(eq(todos.setId, inbox)).all()).toEqual([]);
    expect(await app.ctx.db.select().from(comments).where(eq(comments.todoId, todoId)).all()).toEqual([]);
  });

  it("lets the creator delete their own set; 404 for an unknown one", async () => {
    const own = (await alice.browser.json("GET", base())).data.sets.find((s: { name: string }) => s.name === "Bob's").id;
    expect(await bob.browser.json("DELETE", `${base()}/${own}`)).toMatchObject({ status: 200 });
    expect(await alice.browser.json("DELETE", `${base()}/${own}`)).toMatchObject({ status: 404, data: { error: "Set not found" } });
  });
});
