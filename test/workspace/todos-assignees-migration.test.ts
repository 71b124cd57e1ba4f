import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { sql } from "drizzle-orm";
import { todoSets } from "../../src/workspace/storage/sets.table.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import type { SignedUp } from "../helpers/identity.ts";
import { teamOwner } from "../helpers/workspace.ts";

// A file of its own: it needs a database whose assignee table is gone.
let app: TestApp;
let alice: SignedUp;
let teamId: string;
let setId: string;
let otherSetId: string;
let assignedId: string;
const UNAVAILABLE = { error: "Assignment feature unavailable: database migration required", code: "assignment_unavailable" };

const api = (method: string, path: string, body?: unknown) => alice.browser.json(method, `/api/teams/${teamId}${path}`, body);
/** The team's events so far: on PostgreSQL they come back through the database after the answers, so they are waited for. */
const events = async () => {
  await app.ctx.bus.settled();
  return app.ctx.bus.since(teamId, 0) ?? [];
};

beforeAll(async () => {
  app = await startApp();
  const owner = await teamOwner(app, "alice");
  alice = owner.user;
  teamId = owner.team.id;
  setId = crypto.randomUUID();
  await app.ctx.db.insert(todoSets).values({ id: setId, teamId, userId: alice.user.id, name: "Old db", sortOrder: 0, createdAt: Date.now() }).run();
  otherSetId = (await api("POST", "/sets", { name: "Elsewhere" })).data.set.id;
  // Assigned while the table still existed: the row goes with the table.
  assignedId = (await api("POST", `/sets/${setId}/todos`, { title: "Job" })).data.todo.id;
  expect((await api("PUT", `/todos/${assignedId}/assignees`, { userIds: [alice.user.id] })).status).toBe(200);
  await app.ctx.db.run(sql`DROP TABLE todo_assignees`);
});
afterAll(() => app.stop());

describe("spec 2 section 4.2: 503 when the assignee table is missing", () => {
  it("answers Assignment feature unavailable: database migration required on assignment", async () => {
    const res = await api("PUT", `/todos/${assignedId}/assignees`, { userIds: [alice.user.id] });
    expect(res.data).toEqual(UNAVAILABLE);
    expect(res.status).toBe(503);
    const none = await api("PUT", `/todos/${assignedId}/assignees`, { userIds: [] });
    expect({ status: none.status, data: none.data }).toEqual({ status: 503, data: UNAVAILABLE });
  });

  it("answers the same 503 on assigned-to-me, whose every row is an assignment; the beacon stays {ok:true}", async () => {
    const res = await api("GET", "/assigned-to-me");
    expect({ status: res.status, data: res.data }).toEqual({ status: 503, data: UNAVAILABLE });
    const beacon = await api("POST", "/assigned-expand", { setId, expanded: false });
    expect({ status: beacon.status, data: beacon.data }).toEqual({ status: 200, data: { ok: true } });
  });
});

describe("spec 2 section 4.2: everything else works without the assignee table", () => {
  it("lists the todos, each with empty assignees (section 2.2: empty when unassigned)", async () => {
    const res = await api("GET", `/sets/${setId}/todos`);
    expect(res.status).toBe(200);
    expect(res.data.role).toBe("owner");
    expect(res.data.permissions.assign_todos).toBe(true);
    expect(res.data.todos).toMatchObject([{ id: assignedId, title: "Job", assignees: [] }]);
  });

  it("creates todos and sub-todos, and announces them with empty assignees", async () => {
    const created = await api("POST", `/sets/${setId}/todos`, { title: "Second" });
    expect(created.status).toBe(201);
    expect(created.data.todo).toMatchObject({ title: "Second", parentId: null, assignees: [], commentCount: 0 });
    const sub = await api("POST", `/sets/${setId}/todos`, { title: "Step", parentId: created.data.todo.id });
    expect(sub.status).toBe(201);
    expect(sub.data.todo).toMatchObject({ parentId: created.data.todo.id, assignees: [] });
    const announced = (await events()).filter((e) => e.type === "todo:created" && (e.data as { id: string }).id === created.data.todo.id);
    expect(announced).toHaveLength(1);
    expect(announced[0]?.data).toMatchObject({ assignees: [] });
    const list = await api("GET", `/sets/${setId}/todos`);
    expect(list.data.todos.map((t: { title: string }) => t.title).sort()).toEqual(["Job", "Second", "Step"]);
  });

  it("edits, completes, reorders, comments on, moves and deletes todos", async () => {
    const id = (await api("POST", `/sets/${setId}/todos`, { title: "Edit me" })).data.todo.id;
    expect((await api("PATCH", `/todos/${id}`, { title: "Edited", completed: true })).status).toBe(200);
    const updated = (await events()).findLast((e) => e.type === "todo:updated");
    expect(updated?.data).toMatchObject({ id, title: "Edited", completed: true, assignees: [] });
    expect((await api("POST", "/todos/reorder", { items: [{ id, sortOrder: 0 }], setId })).status).toBe(200);
    expect((await api("POST", `/todos/${id}/comments`, { body: "Looks good" })).status).toBe(201);
    expect((await api("GET", `/todos/${id}/comments`)).status).toBe(200);
    expect((await api("POST", `/todos/${id}/move`, { targetSetId: otherSetId })).status).toBe(200);
    const moved = (await events()).findLast((e) => e.type === "todo:moved");
    expect(moved?.data).toMatchObject({ todo: { id, assignees: [] }, toSetId: otherSetId });
    expect((await api("DELETE", `/todos/${id}`)).status).toBe(200);
    expect((await api("GET", `/sets/${otherSetId}/todos`)).data.todos).toEqual([]);
  });

  it("lists sets and members, exports and imports", async () => {
    expect((await api("GET", "/sets")).status).toBe(200);
    expect((await api("GET", "/members")).status).toBe(200);
    for (const format of ["md", "json", "yaml"]) expect((await api("GET", `/sets/${setId}/export?format=${format}`)).status).toBe(200);
    const into = await api("POST", `/sets/${otherSetId}/import`, { content: "- [ ] Imported\n" });
    expect(into.data).toEqual({ ok: true, imported: 1 });
    const fresh = await api("POST", "/sets/import", { content: "- [ ] New\n", setName: "From file" });
    expect(fresh.status).toBe(201);
    expect((await api("GET", `/sets/${fresh.data.set.id}/todos`)).data.todos).toMatchObject([{ title: "New", assignees: [] }]);
    expect((await api("DELETE", `/sets/${fresh.data.set.id}`)).status).toBe(200);
  });

  it("serves the set through a share link: the public list, a public write, and the SVGs", async () => {
    const link = (await api("POST", `/sets/${setId}/share-links`, { canCreate: true })).data.link;
    const page = await app.json("GET", `/api/shared/${link.token}`);
    expect(page.status).toBe(200);
    expect(page.data.todos.every((t: { assignees: unknown[] }) => t.assignees.length === 0)).toBe(true);
    const added = await app.json("POST", `/api/shared/${link.token}/todos`, { title: "From the link" });
    expect(added.status).toBe(201);
    expect(added.data.todo).toMatchObject({ userId: "shared", assignees: [] });
    expect((await app.fetch(`/api/shared/${link.token}/todo-list.svg`)).status).toBe(200);
    expect((await app.fetch(`/api/shared/${link.token}/badge.svg`)).status).toBe(200);
  });
});
