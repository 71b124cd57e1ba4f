import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { and, asc, eq, isNull } from "drizzle-orm";
import { comments } from "../../src/workspace/storage/comments.table.ts";
import { todoSets } from "../../src/workspace/storage/sets.table.ts";
import { todos } from "../../src/workspace/storage/todos.table.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { signUp, type SignedUp } from "../helpers/identity.ts";
import { teamOwner, workspaceSignIn } from "../helpers/workspace.ts";

let app: TestApp;
let alice: SignedUp;
let bob: SignedUp;
let teamId: string;
let setId: string;
const base = () => `/api/teams/${teamId}/sets`;
const rootTitles = async (id = setId) =>
  (
    await app.ctx.db
      .select()
      .from(todos)
      .where(and(eq(todos.setId, id), isNull(todos.parentId)))
      .orderBy(asc(todos.sortOrder))
      .all()
  ).map((t) => t.title);
const todoCount = async (id = setId) => (await app.ctx.db.select().from(todos).where(eq(todos.setId, id)).all()).length;
const overrideSet = (id: string, permissions: Record<string, Record<string, boolean>> | null) =>
  app.ctx.db.update(todoSets).set({ permissions }).where(eq(todoSets.id, id)).run();

beforeAll(async () => {
  app = await startApp();
  const owner = await teamOwner(app, "alice");
  alice = owner.user;
  teamId = owner.team.id;
  bob = await signUp(app, "bob");
  await alice.browser.json("POST", `/api/oauth/me/teams/${teamId}/members`, { username: "bob", role: "member" });
  await workspaceSignIn(app, bob);
  setId = (await alice.browser.json("POST", base(), { name: "Chores" })).data.set.id;
});
afterAll(() => app.stop());

const JSON_SET = {
  name: "Trip",
  autoRenew: true,
  renewTime: "06:00",
  timezone: "Europe/Berlin",
  splitCompleted: true,
  todos: [
    {
      title: "Pack",
      completed: false,
      comments: [{ author: "x", body: "socks!", createdAt: "2026-01-02T03:04:05.000Z" }],
      children: [{ title: "Socks", completed: true, children: [] }],
    },
    { title: "Tickets", completed: true, children: [] },
  ],
};

describe("spec 2 section 4.1 POST sets/:setId/import", () => {
  it("appends Markdown at the bottom by default, whole subtrees, owned by the caller", async () => {
    const res = await alice.browser.json("POST", `${base()}/${setId}/import`, { content: "# Any\n\n- [ ] Dishes\n  - [x] Plates\n- [ ] Laundry\n" });
    expect(res).toMatchObject({ status: 200, data: { ok: true, imported: 3 } });
    expect(await rootTitles()).toEqual(["Dishes", "Laundry"]);
    const plates = await app.ctx.db.select().from(todos).where(eq(todos.title, "Plates")).get();
    const creator = (await app.ctx.db.select().from(todoSets).where(eq(todoSets.id, setId)).get())?.userId as string;
    expect(plates).toMatchObject({ completed: true, sortOrder: 0, userId: creator });
  });

  it("inserts at the top when asked, keeping the existing order below", async () => {
    await alice.browser.json("POST", `${base()}/${setId}/import`, { content: "- [ ] Vacuum\n", insertAt: "top" });
    expect(await rootTitles()).toEqual(["Vacuum", "Dishes", "Laundry"]);
  });

  it("answers 409 when an imported root collides with an existing one, importing nothing", async () => {
    const before = await todoCount();
    const res = await alice.browser.json("POST", `${base()}/${setId}/import`, { content: "- [ ] New\n- [ ] Dishes\n" });
    expect(res).toMatchObject({ status: 409, data: { error: "Todo item title already exists among sibling todos: Dishes" } });
    expect(await todoCount()).toBe(before);
  });

  it("replace deletes existing todos first and imports comments when asked (caller as author)", async () => {
    const res = await alice.browser.json("POST", `${base()}/${setId}/import`, {
      format: "json",
      content: JSON.stringify(JSON_SET),
      mode: "replace",
      includeComments: true,
    });
    expect(res).toMatchObject({ status: 200, data: { ok: true, imported: 3 } });
    expect(await rootTitles()).toEqual(["Pack", "Tickets"]);
    const pack = await app.ctx.db.select().from(todos).where(eq(todos.title, "Pack")).get();
    const list = await app.ctx.db
      .select()
      .from(comments)
      .where(eq(comments.todoId, pack?.id as string))
      .all();
    expect(list).toMatchObject([{ body: "socks!", userId: pack?.userId as string, createdAt: Date.parse("2026-01-02T03:04:05.000Z") }]);
  });

  it("answers `Content is required` and `Failed to parse import content`", async () => {
    const before = await todoCount();
    expect(await alice.browser.json("POST", `${base()}/${setId}/import`, { content: "  " })).toMatchObject({
      status: 400,
      data: { error: "Content is required" },
    });
    expect(await alice.browser.json("POST", `${base()}/${setId}/import`, {})).toMatchObject({ status: 400, data: { error: "Content is required" } });
    expect(await alice.browser.json("POST", `${base()}/${setId}/import`, { format: "json", content: "{nope" })).toMatchObject({
      status: 400,
      data: { error: "Failed to parse import content" },
    });
    expect(await alice.browser.json("POST", `${base()}/${setId}/import`, { format: "xml", content: "<a/>" })).toMatchObject({
      status: 400,
      data: { error: "Failed to parse import content" },
    });
    expect(await alice.browser.json("POST", `${base()}/${setId}/import`, { content: "- [ ] A", mode: "merge" })).toMatchObject({
      status: 400,
      data: { error: "Invalid request" },
    });
    expect(await todoCount()).toBe(before);
  });

  it("refuses import without create_todos and replace without manage_sets", async () => {
    expect(await bob.browser.json("POST", `${base()}/${setId}/import`, { content: "- [ ] Bob", mode: "replace" })).toMatchObject({
      status: 403,
      data: { error: "No permission to replace set content" },
    });
    await overrideSet(setId, { member: { create_todos: false } });
    expect(await bob.browser.json("POST", `${base()}/${setId}/import`, { content: "- [ ] Bob" })).toMatchObject({
      status: 403,
      data: { error: "No permission to import into this set" },
    });
    await overrideSet(setId, null);
    expect(await bob.browser.json("POST", `${base()}/${setId}/import`, { content: "- [ ] Bob" })).toMatchObject({ status: 200, data: { imported: 1 } });
  });

  it("answers 404 `Set not found` for an unknown set", async () => {
    expect(await alice.browser.json("POST", `${base()}/${crypto.randomUUID()}/import`, { content: "- [ ] A" })).toMatchObject({
      status: 404,
      data: { error: "Set not found" },
    });
  });
});

describe("spec 2 section 4.1 GET sets/:setId/export", () => {
  it("exports Markdown by default as {format, fileName, content}", async () => {
    const res = await alice.browser.json("GET", `${base()}/${setId}/export`);
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({ format: "md", fileName: "chores.md" });
    expect(res.data.content).toContain("- [ ] Pack");
    expect(res.data.content).toContain("  - [x] Socks");
  });

  it("exports JSON with comments only when includeComments=1", async () => {
    const plain = JSON.parse((await alice.browser.json("GET", `${base()}/${setId}/export?format=json`)).data.content);
    expect(plain).toMatchObject({
      id: setId,
      name: "Chores",
      todos: [{ title: "Pack", children: [{ title: "Socks", completed: true }] }, { title: "Tickets" }, { title: "Bob" }],
    });
    expect(plain.todos[0].comments).toBeUndefined();
    const full = JSON.parse((await alice.browser.json("GET", `${base()}/${setId}/export?format=json&includeComments=1`)).data.content);
    expect(full.todos[0].comments).toMatchObject([{ body: "socks!", createdAt: "2026-01-02T03:04:05.000Z" }]);
    const yaml = (await alice.browser.json("GET", `${base()}/${setId}/export?format=yaml`)).data;
    expect(yaml).toMatchObject({ format: "yaml", fileName: "chores.yaml" });
  });

  it("refuses an unknown format, a caller without view_todos, and an unknown set", async () => {
    expect(await alice.browser.json("GET", `${base()}/${setId}/export?format=csv`)).toMatchObject({ status: 400, data: { error: "Invalid request" } });
    await overrideSet(setId, { member: { view_todos: false } });
    expect(await bob.browser.json("GET", `${base()}/${setId}/export`)).toMatchObject({ status: 403, data: { error: "No permission to export this set" } });
    await overrideSet(setId, null);
    expect(await alice.browser.json("GET", `${base()}/${crypto.randomUUID()}/export`)).toMatchObject({ status: 404, data: { error: "Set not found" } });
  });
});

describe("spec 2 section 4.1 POST sets/import", () => {
  it("creates a set from JSON with its settings, id and tree (201 {ok, imported, set})", async () => {
    const id = crypto.randomUUID();
    const res = await alice.browser.json("POST", `${base()}/import`, { format: "json", content: JSON.stringify({ ...JSON_SET, id }) });
    expect(res.status).toBe(201);
    expect(res.data).toMatchObject({
      ok: true,
      imported: 3,
      set: { id, name: "Trip", autoRenew: true, renewTime: "06:00", timezone: "Europe/Berlin", splitCompleted: true, sortOrder: 1 },
    });
    expect(await rootTitles(id)).toEqual(["Pack", "Tickets"]);
    // includeComments was not asked for: only the earlier replace import's comment exists.
    expect((await app.ctx.db.select().from(comments).all()).filter((c) => c.body === "socks!")).toHaveLength(1);
  });

  it("names a Markdown import `Imported Set` unless setName is given, whatever its heading, and ignores setId for Markdown", async () => {
    const plain = await alice.browser.json("POST", `${base()}/import`, { content: "# Groceries\n\n- [ ] One\n" });
    expect(plain).toMatchObject({ status: 201, data: { imported: 1, set: { name: "Imported Set" } } });
    expect((await alice.browser.json("GET", `${base()}/${plain.data.set.id}/todos`)).data.todos.map((t: { title: string }) => t.title)).toEqual(["One"]);
    const givenId = crypto.randomUUID();
    const named = await alice.browser.json("POST", `${base()}/import`, { content: "- [ ] One\n", setName: "Named", setId: givenId });
    expect(named).toMatchObject({ status: 201, data: { set: { name: "Named" } } });
    expect(named.data.set.id).not.toBe(givenId);
  });

  it("takes setName, else `Imported Set`, for a JSON or YAML file that names no set; into a set the name does not matter", async () => {
    const named = await alice.browser.json("POST", `${base()}/import`, { format: "json", content: '{"todos":[{"title":"A"}]}', setName: "Unnamed file" });
    expect(named).toMatchObject({ status: 201, data: { imported: 1, set: { name: "Unnamed file" } } });
    const into = await alice.browser.json("POST", `${base()}/${named.data.set.id}/import`, { format: "yaml", content: "todos:\n  - title: B\n" });
    expect(into).toMatchObject({ status: 200, data: { ok: true, imported: 1 } });
    const bare = await alice.browser.json("POST", `${base()}/import`, { format: "yaml", content: "todos: []\n" });
    expect(bare).toMatchObject({ status: 409, data: { error: "Todo list name already exists in this team" } }); // `Imported Set`, taken above
  });

  it("uses setId for JSON and answers 409 `Set id already exists` when it is taken", async () => {
    const res = await alice.browser.json("POST", `${base()}/import`, { format: "yaml", content: "name: Y\ntodos: []\n", setId, setName: "Fresh" });
    expect(res).toMatchObject({ status: 409, data: { error: "Set id already exists" } });
    const fresh = crypto.randomUUID();
    expect(await alice.browser.json("POST", `${base()}/import`, { format: "yaml", content: "name: Y\ntodos: []\n", setId: fresh })).toMatchObject({
      status: 201,
      data: { set: { id: fresh, name: "Y" } },
    });
  });

  it("keeps the id inside an exported file when it is free, and gives a copy next to its original a new id", async () => {
    const exported = (await alice.browser.json("GET", `${base()}/${setId}/export?format=json`)).data.content;
    const copy = await alice.browser.json("POST", `${base()}/import`, { format: "json", content: exported, setName: "A copy" });
    expect(copy.status).toBe(201);
    expect(copy.data.set.id).not.toBe(setId);
    const moved = JSON.stringify({ ...JSON.parse(exported), id: crypto.randomUUID() });
    const whole = await alice.browser.json("POST", `${base()}/import`, { format: "json", content: moved, setName: "Moved whole" });
    expect(whole.data.set.id).toBe(JSON.parse(moved).id);
  });

  it("checks imported files like the API: IANA time zones only, titles of at most 1,000 characters, no control characters", async () => {
    for (const timezone of ["+05:30", "Mars/Olympus"]) {
      const res = await alice.browser.json("POST", `${base()}/import`, {
        format: "json",
        content: JSON.stringify({ name: `TZ ${timezone}`, timezone, todos: [] }),
      });
      expect(res).toMatchObject({ status: 400, data: { error: "Failed to parse import content" } });
    }
    const long = await alice.browser.json("POST", `${base()}/import`, { content: `- [ ] ${"x".repeat(1001)}\n`, setName: "Too long" });
    expect(long).toMatchObject({ status: 400, data: { error: "Failed to parse import content" } });
    const odd = await alice.browser.json("POST", `${base()}/import`, {
      format: "json",
      content: JSON.stringify({ name: "Odd\u0007 chars", todos: [{ title: "Tab\there\u0000", completed: false }] }),
    });
    expect(odd.status).toBe(201);
    expect(odd.data.set.name).toBe("Odd  chars");
    const todos = (await alice.browser.json("GET", `${base()}/${odd.data.set.id}/todos`)).data.todos;
    expect(todos.map((t: { title: string }) => t.title)).toEqual(["Tab here"]);
  });

  it("answers 409 for a taken name, 400 for bad content, and 403 without manage_sets, creating nothing", async () => {
    const count = async () => (await app.ctx.db.select().from(todoSets).all()).length;
    const before = await count();
    expect(await alice.browser.json("POST", `${base()}/import`, { content: "- [ ] One\n", setName: "Chores" })).toMatchObject({
      status: 409,
      data: { error: "Todo list name already exists in this team" },
    });
    expect(await alice.browser.json("POST", `${base()}/import`, { content: "" })).toMatchObject({ status: 400, data: { error: "Content is required" } });
    expect(await alice.browser.json("POST", `${base()}/import`, { format: "yaml", content: "name: [" })).toMatchObject({
      status: 400,
      data: { error: "Failed to parse import content" },
    });
    expect(await alice.browser.json("POST", `${base()}/import`, { format: "json", content: "{}", setId: "not-a-uuid" })).toMatchObject({
      status: 400,
      data: { error: "Invalid request" },
    });
    expect(await bob.browser.json("POST", `${base()}/import`, { content: "- [ ] One\n", setName: "Bobs" })).toMatchObject({
      status: 403,
      data: { error: "No permission to manage sets" },
    });
    expect(await count()).toBe(before);
  });
});
