import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { sql } from "drizzle-orm";
import { startApp, type TestApp } from "../helpers/app.ts";
import type { RunningServer } from "../helpers/cli.ts";
import type { SignedUp } from "../helpers/identity.ts";
import { runOnOtherConnection } from "../helpers/other-connection.ts";
import { requestsByWorker, startTwoWorkers, WORKERS_PATIENCE_MS } from "../helpers/workers.ts";
import { teamOwner } from "../helpers/workspace.ts";
import { renewDueSets } from "../../src/workspace/renew/renew.job.ts";

/*
 * Issue 43: the todo list's cache is kept per set. A write to one set leaves every other set's
 * list served from the cache (counted by the cache itself, not timed), and is seen on the next
 * read of its own set: through the API, from another connection to the database, and from
 * another worker process.
 */

let app: TestApp;
let alice: SignedUp;
let teamId: string;
beforeAll(async () => {
  app = await startApp();
  ({
    user: alice,
    team: { id: teamId },
  } = await teamOwner(app, "alice"));
});
afterAll(() => app.stop());

type Todo = { id: string; title: string; completed: boolean; commentCount: number; assignees: { userId: string; name: string | null }[] };
const api = (method: string, path: string, body?: unknown) => alice.browser.json(method, `/api/teams/${teamId}${path}`, body);
let made = 0;
const newSet = async () => (await api("POST", "/sets", { name: `Cached ${++made}` })).data.set.id as string;
const create = async (setId: string, title: string) => (await api("POST", `/sets/${setId}/todos`, { title })).data.todo as Todo;
const list = async (setId: string) => (await api("GET", `/sets/${setId}/todos`)).data.todos as Todo[];
const counts = () => ({ ...app.ctx.workspace.todos.answers.counts });

/**
 * Reads `setIds` once so they are cached, runs `write`, reads them again: which were built again
 * (not served from the cache) on that second read.
 */
async function rebuiltBy(setIds: string[], write: () => Promise<unknown> | unknown): Promise<string[]> {
  for (const id of setIds) await list(id);
  await write();
  const rebuilt: string[] = [];
  for (const id of setIds) {
    const before = counts().builds;
    await list(id);
    if (counts().builds > before) rebuilt.push(id);
  }
  return rebuilt;
}

describe("the todo list cache is kept per set (issue 43)", () => {
  it("serves a set's list from the cache until that set changes", async () => {
    const a = await newSet();
    await create(a, "Milk");
    await list(a);
    const before = counts();
    await list(a);
    await list(a);
    expect(counts()).toEqual({ hits: before.hits + 2, builds: before.builds });
  });

  it("a new todo in set A leaves set B cached, and shows on the next read of A", async () => {
    const [a, b] = [await newSet(), await newSet()];
    await create(b, "Bread");
    expect(await rebuiltBy([a, b], () => create(a, "Eggs"))).toEqual([a]);
    expect((await list(a)).map((t) => t.title)).toEqual(["Eggs"]);
  });

  it("edits, completions, comments, assignees, reorders and deletes of A's todos rebuild A only", async () => {
    const [a, b] = [await newSet(), await newSet()];
    const todo = await create(a, "Tea");
    const other = await create(a, "Coffee");
    await create(b, "Jam");
    expect(await rebuiltBy([a, b], () => api("PATCH", `/todos/${todo.id}`, { title: "Green tea" }))).toEqual([a]);
    expect(await rebuiltBy([a, b], () => api("PATCH", `/todos/${todo.id}`, { completed: true }))).toEqual([a]);
    expect((await list(a)).find((t) => t.id === todo.id)).toMatchObject({ title: "Green tea", completed: true });
    expect(await rebuiltBy([a, b], () => api("POST", `/todos/${todo.id}/comments`, { body: "Loose leaf" }))).toEqual([a]);
    expect((await list(a)).find((t) => t.id === todo.id)?.commentCount).toBe(1);
    expect(await rebuiltBy([a, b], () => api("PUT", `/todos/${todo.id}/assignees`, { userIds: [alice.user.id] }))).toEqual([a]);
    expect((await list(a)).find((t) => t.id === todo.id)?.assignees.map((m) => m.userId)).toEqual([alice.user.id]);
    const items = [
      { id: todo.id, sortOrder: 5 },
      { id: other.id, sortOrder: 4 },
    ];
    expect(await rebuiltBy([a, b], () => api("POST", "/todos/reorder", { setId: a, items }))).toEqual([a]);
    expect(await rebuiltBy([a, b], () => api("DELETE", `/todos/${other.id}`))).toEqual([a]);
    expect((await list(a)).map((t) => t.title)).toEqual(["Green tea"]);
  });

  it("a move rebuilds the source and the target set, no other", async () => {
    const [a, b, c] = [await newSet(), await newSet(), await newSet()];
    const moving = await create(a, "Soap");
    await create(c, "Towel");
    expect(await rebuiltBy([a, b, c], () => api("POST", `/todos/${moving.id}/move`, { targetSetId: b }))).toEqual([a, b]);
    expect([(await list(a)).length, (await list(b)).map((t) => t.title)]).toEqual([0, ["Soap"]]);
  });

  it("an import, a renew and a share link's write rebuild their set only", async () => {
    const [a, b] = [await newSet(), await newSet()];
    await create(b, "Stays");
    const imported = () => api("POST", `/sets/${a}/import`, { format: "md", content: "- [ ] Rice\n- [x] Beans\n" });
    expect(await rebuiltBy([a, b], imported)).toEqual([a]);
    expect((await list(a)).map((t) => t.title).sort()).toEqual(["Beans", "Rice"]);
    await api("PATCH", `/sets/${a}`, { autoRenew: true, renewTime: "00:00", timezone: "UTC" });
    expect(await rebuiltBy([a, b], async () => expect(await renewDueSets(app.ctx)).toContain(a))).toEqual([a]);
    expect((await list(a)).every((t) => !t.completed)).toBe(true);
    const link = (await api("POST", `/sets/${a}/share-links`, { canCreate: true })).data.link;
    expect(await rebuiltBy([a, b], () => app.json("POST", `/api/shared/${link.token}/todos`, { title: "Via link" }))).toEqual([a]);
    expect((await app.json("GET", `/api/shared/${link.token}`)).data.todos.map((t: Todo) => t.title)).toContain("Via link");
  });

  it("a member's new name rebuilds the lists of their team's sets, and shows in them", async () => {
    const [a, b] = [await newSet(), await newSet()];
    const todo = await create(a, "Plants");
    await api("PUT", `/todos/${todo.id}/assignees`, { userIds: [alice.user.id] });
    // Another team's set stays cached: names are per team.
    const other = await teamOwner(app, "olga", "Elsewhere");
    const theirs = (await other.user.browser.json("POST", `/api/teams/${other.team.id}/sets`, { name: "Theirs" })).data.set.id;
    const theirList = () => other.user.browser.json("GET", `/api/teams/${other.team.id}/sets/${theirs}/todos`);
    await theirList();
    const rename = () => app.ctx.db.run(sql`UPDATE workspace_member_cache SET name = 'Alice Renamed' WHERE team_id = ${teamId} AND user_id = ${alice.user.id}`);
    expect(await rebuiltBy([a, b], rename)).toEqual([a, b]);
    const before = counts().builds;
    await theirList();
    expect(counts().builds).toBe(before);
    expect((await list(a))[0]?.assignees[0]?.name).toBe("Alice Renamed");
  });

  it("a deleted set's list is gone with it, and a set made again under its id starts empty", async () => {
    const json = JSON.stringify({ name: "Reused", todos: [{ title: "Old" }] });
    const first = await api("POST", "/sets/import", { format: "json", content: json, setId: crypto.randomUUID() });
    expect(first.status).toBe(201);
    const id = first.data.set.id as string;
    expect((await list(id)).map((t) => t.title)).toEqual(["Old"]);
    expect((await api("DELETE", `/sets/${id}`)).status).toBe(200);
    expect((await api("GET", `/sets/${id}/todos`)).status).toBe(404);
    const again = await api("POST", "/sets/import", { format: "json", content: JSON.stringify({ name: "Reused", todos: [{ title: "New" }] }), setId: id });
    expect(again.status).toBe(201);
    expect((await list(id)).map((t) => t.title)).toEqual(["New"]);
  });

  it("a write by another connection (another process, the sqlite3 shell or psql) is seen on the next read", async () => {
    const [a, b] = [await newSet(), await newSet()];
    const todo = await create(a, "Before");
    await create(b, "Untouched");
    const write = () => runOnOtherConnection(app, "UPDATE todos SET title = 'After' WHERE id = ?", [todo.id]);
    expect(await rebuiltBy([a, b], write)).toEqual([a]);
    expect((await list(a)).map((t) => t.title)).toEqual(["After"]);
  });

  it("concurrent writes to two sets leave each set's list and counts exact (PostgreSQL runs them in parallel)", async () => {
    const [a, b] = [await newSet(), await newSet()];
    const first = await Promise.all(Array.from({ length: 8 }, (_, i) => create(i % 2 ? a : b, `Early ${i}`)));
    await Promise.all([a, b].map(list));
    const writes = await Promise.all([
      ...Array.from({ length: 8 }, (_, i) => api("POST", `/sets/${i % 2 ? b : a}/todos`, { title: `Late ${i}` })),
      ...first.slice(0, 4).map((t) => api("PATCH", `/todos/${t.id}`, { completed: true })),
      ...first.slice(4, 6).map((t) => api("POST", `/todos/${t.id}/move`, { targetSetId: a })),
      api("DELETE", `/todos/${first[6]?.id}`),
    ]);
    expect(writes.map((r) => r.status).filter((s) => s >= 300)).toEqual([]);
    const listed = (await api("GET", "/sets")).data.sets as { id: string; total: number; completed: number }[];
    for (const id of [a, b]) {
      const stored = await app.ctx.db.all<{ id: string; completed: number }>(sql`SELECT id, completed FROM todos WHERE set_id = ${id} AND parent_id IS NULL`);
      expect(listed.find((s) => s.id === id)).toMatchObject({ total: stored.length, completed: stored.filter((t) => t.completed === 1).length });
      expect((await list(id)).map((t) => t.id).sort()).toEqual(stored.map((t) => t.id).sort());
    }
  });
});

describe("the todo list cache across CAIRN_WORKERS=2 (issue 43)", () => {
  let url: string;
  let server: RunningServer;
  let instance: TestApp;
  beforeAll(async () => {
    ({ server, instance, url } = await startTwoWorkers());
  }, WORKERS_PATIENCE_MS + 30_000);
  afterAll(async () => {
    await instance?.stop();
    await server?.stop();
  });

  it(
    "a write through either worker is seen by every read after it, whichever worker cached the list",
    async () => {
      const { user, team } = await teamOwner(instance, "walt");
      const cookie = `cairn_ws=${user.browser.cookies.get("cairn_ws")}`;
      const path = (setId: string) => `/api/teams/${team.id}/sets/${setId}/todos`;
      const setId = (await user.browser.json("POST", `/api/teams/${team.id}/sets`, { name: "Shared" })).data.set.id as string;
      // Each read and write on its own connection, so the kernel spreads them over both workers.
      const once = (method: string, target: string, body?: unknown) =>
        fetch(url + target, {
          method,
          headers: { cookie, origin: url, connection: "close", ...(body ? { "content-type": "application/json" } : {}) },
          body: body ? JSON.stringify(body) : undefined,
        });
      const readAll = async () =>
        Promise.all(Array.from({ length: 12 }, async () => ((await (await once("GET", path(setId))).json()) as { todos: Todo[] }).todos));
      let titles: string[] = [];
      for (const title of ["one", "two", "three", "four"]) {
        // Both workers hold the list as it was; then the write lands on one of them.
        for (const seen of await readAll()) expect(seen.map((t) => t.title)).toEqual(titles);
        expect((await once("POST", path(setId), { title })).status).toBe(201);
        titles = [...titles, title];
        for (const seen of await readAll()) expect(seen.map((t) => t.title)).toEqual(titles);
      }
      const byWorker = await requestsByWorker(server, (p) => p === path(setId), 12 * 8, "the list reads");
      expect(byWorker.every((n) => n > 0)).toBe(true);
    },
    2 * WORKERS_PATIENCE_MS,
  );
});
