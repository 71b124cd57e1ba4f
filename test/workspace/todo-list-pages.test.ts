import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { sql } from "drizzle-orm";
import fc from "fast-check";
import { startApp, type TestApp } from "../helpers/app.ts";
import type { SignedUp } from "../helpers/identity.ts";
import { teamOwner } from "../helpers/workspace.ts";

/*
 * Issue 43: the todo list in pages (`limit`, `cursor`, `nextCursor`), additive to spec 2 section
 * 4.2's list, and the set counts kept by the database instead of counted per request.
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

type Todo = { id: string; parentId: string | null; title: string; completed: boolean; sortOrder: number; createdAt: string };
const api = (method: string, path: string, body?: unknown) => alice.browser.json(method, `/api/teams/${teamId}${path}`, body);
let made = 0;
const newSet = async (name = `Set ${++made}`) => {
  const res = await api("POST", "/sets", { name });
  expect(res.status).toBe(201);
  return res.data.set.id as string;
};
const create = async (setId: string, title: string, parentId: string | null = null) => {
  const res = await api("POST", `/sets/${setId}/todos`, { title, parentId });
  if (res.status !== 201) throw new Error(`create ${title}: ${res.status} ${JSON.stringify(res.data)}`);
  return res.data.todo as Todo;
};
const whole = async (setId: string) => (await api("GET", `/sets/${setId}/todos`)).data.todos as Todo[];
/** Every page, in turn, calling `between` after each: the ids in the order they came. */
async function walk(path: string, limit: number, between: () => Promise<void> = async () => {}) {
  const ids: string[] = [];
  let cursor: string | null = null;
  for (let pages = 0; ; pages++) {
    if (pages > 10_000) throw new Error("the pages never end");
    const res = await alice.browser.json("GET", `${path}?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
    expect(res.status).toBe(200);
    ids.push(...(res.data.todos as Todo[]).map((t) => t.id));
    cursor = res.data.nextCursor;
    if (cursor === null) return ids;
    expect(typeof cursor).toBe("string");
    await between();
  }
}
const expectError = (res: { status: number; data: unknown }, status: number, code: string) => {
  expect(res.status).toBe(status);
  expect(res.data).toMatchObject({ code, error: expect.any(String) });
};

describe("the todo list in pages (issue 43)", () => {
  it("answers the spec's list unchanged without limit or cursor: no nextCursor", async () => {
    const setId = await newSet();
    await create(setId, "Milk");
    const res = await api("GET", `/sets/${setId}/todos`);
    expect(Object.keys(res.data).sort()).toEqual(["permissions", "role", "todos"]);
  });

  it("pages by creation with sub-todos included; the pages together are the whole list; nextCursor null at the end", async () => {
    const setId = await newSet();
    const roots = [];
    for (const title of ["a", "b", "c", "d", "e"]) roots.push(await create(setId, title));
    await create(setId, "a1", roots[0]?.id);
    // Reordered: the pages' order does not follow sortOrder, and needs not.
    await api("POST", "/todos/reorder", { setId, items: roots.map((t, i) => ({ id: t.id, sortOrder: 10 - i })) });
    const all = await whole(setId);
    const first = await api("GET", `/sets/${setId}/todos?limit=2`);
    expect(Object.keys(first.data).sort()).toEqual(["nextCursor", "permissions", "role", "todos"]);
    expect(first.data.todos.map((t: Todo) => t.title)).toEqual(["a", "b"]);
    expect(first.data.permissions).toEqual((await api("GET", `/sets/${setId}/todos`)).data.permissions);
    const ids = await walk(`/api/teams/${teamId}/sets/${setId}/todos`, 2);
    expect(ids).toHaveLength(6);
    expect(new Set(ids)).toEqual(new Set(all.map((t) => t.id)));
    // A page exactly as large as what is left still says whether more follows.
    const exact = await api("GET", `/sets/${setId}/todos?limit=6`);
    expect([exact.data.todos.length, exact.data.nextCursor]).toEqual([6, null]);
    const empty = await newSet();
    expect((await api("GET", `/sets/${empty}/todos?limit=10`)).data).toMatchObject({ todos: [], nextCursor: null });
  });

  it("a cursor alone pages with the default size; refuses a bad limit or cursor, and sort with pages, with 400 and its code", async () => {
    const setId = await newSet();
    await create(setId, "one");
    await create(setId, "two");
    const first = await api("GET", `/sets/${setId}/todos?limit=1`);
    const rest = await api("GET", `/sets/${setId}/todos?cursor=${first.data.nextCursor}`);
    expect(rest.data.todos.map((t: Todo) => t.title)).toEqual(["two"]);
    expect(rest.data.nextCursor).toBeNull();
    for (const limit of ["0", "1001", "1.5", "abc", "-3"]) expect((await api("GET", `/sets/${setId}/todos?limit=${limit}`)).status).toBe(400);
    for (const cursor of ["nope", "bm9wZQ", Buffer.from("12.").toString("base64url"), "%00", "x".repeat(401)])
      expect((await api("GET", `/sets/${setId}/todos?limit=5&cursor=${encodeURIComponent(cursor)}`)).status).toBe(400);
    expectError(await api("GET", `/sets/${setId}/todos?limit=5&cursor=nope`), 400, "invalid_cursor");
    expectError(await api("GET", `/sets/${setId}/todos?limit=5&sort=due`), 400, "sort_with_pages");
    expect((await api("GET", `/sets/${setId}/todos?sort=due`)).status).toBe(200);
  });

  it("a share link's list pages the same way (additive); without canView, no todos and no next page", async () => {
    const setId = await newSet();
    for (const title of ["x", "y", "z"]) await create(setId, title);
    const link = (await api("POST", `/sets/${setId}/share-links`, {})).data.link;
    const shared = await app.json("GET", `/api/shared/${link.token}`);
    expect(shared.data.nextCursor).toBeUndefined();
    expect(shared.data.todos).toHaveLength(3);
    const ids = await walk(`/api/shared/${link.token}`, 2);
    expect(new Set(ids)).toEqual(new Set(shared.data.todos.map((t: Todo) => t.id)));
    const blind = (await api("POST", `/sets/${setId}/share-links`, { canView: false, canCreate: true })).data.link;
    expect((await app.json("GET", `/api/shared/${blind.token}?limit=2`)).data).toMatchObject({ todos: [], nextCursor: null });
    expectError(await app.json("GET", `/api/shared/${link.token}?limit=2&cursor=nope`), 400, "invalid_cursor");
  });
});

/** The set's todos and top-level counts as the database holds them now. */
async function truth(setId: string) {
  const ids = (await app.ctx.db.all<{ id: string }>(sql`SELECT id FROM todos WHERE set_id = ${setId}`)).map((r) => r.id);
  const [counts] = await app.ctx.db.all<{ total: number; completed: number }>(
    sql`SELECT count(*) AS total, coalesce(sum(completed), 0) AS completed FROM todos WHERE set_id = ${setId} AND parent_id IS NULL`,
  );
  return { ids: new Set(ids), counts };
}

const Op = fc.record({
  kind: fc.constantFrom("create", "sub", "delete", "reorder", "out", "in", "complete", "rename"),
  pick: fc.nat(),
  count: fc.integer({ min: 0, max: 3 }),
});

type OpValue = typeof Op extends fc.Arbitrary<infer T> ? T : never;

describe("pagination never skips or repeats a todo while others write (issue 43, property)", () => {
  it("returns every todo that stays in the set exactly once, and nothing that never was in it, whatever is inserted, moved, deleted or reordered between pages; counts stay exact", async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 6 }), fc.array(Op, { minLength: 5, maxLength: 60 }), async (limit, ops) => {
        run++;
        const setId = await newSet(`Walked ${run}`);
        const otherId = await newSet(`Elsewhere ${run}`);
        let n = 0;
        const title = () => `t${run}-${++n}`;
        for (let i = 0; i < 12; i++) {
          const root = await create(setId, title());
          if (i % 3 === 0) await create(setId, title(), root.id);
        }
        for (let i = 0; i < 3; i++) await create(otherId, title());
        const start = (await truth(setId)).ids;
        let stable = new Set(start);
        const ever = new Set(start);
        const pending = [...ops];
        const pick = <T>(items: T[], k: number) => items[k % items.length];

        const apply = async (op: OpValue) => {
          const here = await whole(setId);
          const target = pick(here, op.pick);
          const roots = here.filter((t) => t.parentId === null);
          if (op.kind === "create") await create(setId, title());
          else if (op.kind === "sub" && target) await create(setId, title(), target.id);
          else if (op.kind === "delete" && target) expect((await api("DELETE", `/todos/${target.id}`)).status).toBe(200);
          else if (op.kind === "reorder" && roots.length > 1) {
            const shuffled = roots.map((t, i) => ({ id: t.id, sortOrder: (i * 7 + op.pick) % roots.length }));
            expect((await api("POST", "/todos/reorder", { setId, items: shuffled })).status).toBe(200);
          } else if (op.kind === "out" && target) expect((await api("POST", `/todos/${target.id}/move`, { targetSetId: otherId })).status).toBe(200);
          else if (op.kind === "in") {
            const there = (await whole(otherId)).filter((t) => t.parentId === null);
            const moving = pick(there, op.pick);
            if (moving) expect((await api("POST", `/todos/${moving.id}/move`, { targetSetId: setId, insertAt: "top" })).status).toBe(200);
          } else if (op.kind === "complete" && target) await api("PATCH", `/todos/${target.id}`, { completed: !target.completed });
          else if (op.kind === "rename" && target) await api("PATCH", `/todos/${target.id}`, { title: title() });
          const now = await truth(setId);
          stable = new Set([...stable].filter((id) => now.ids.has(id)));
          for (const id of now.ids) ever.add(id);
        };

        const ids = await walk(`/api/teams/${teamId}/sets/${setId}/todos`, limit, async () => {
          const step = pending.shift();
          if (!step) return;
          for (let i = 0; i < step.count; i++) await apply({ ...step, pick: step.pick + i });
        });
        expect(new Set(ids).size).toBe(ids.length);
        for (const id of stable) expect(ids).toContain(id);
        for (const id of ids) expect(ever.has(id)).toBe(true);

        // The counts the set list answers are the database's own, after all of that.
        const listed = (await api("GET", "/sets")).data.sets as { id: string; total: number; completed: number; pending: number }[];
        for (const id of [setId, otherId]) {
          const { counts } = await truth(id);
          const set = listed.find((s) => s.id === id);
          expect(set).toMatchObject({ total: counts?.total, completed: counts?.completed, pending: (counts?.total ?? 0) - (counts?.completed ?? 0) });
        }
      }),
      { numRuns: 12, seed: 43 },
    );
  }, 300_000);
});
