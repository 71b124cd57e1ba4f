import { describe, expect, it } from "bun:test";
import type { Todo, TodoList } from "../../web/src/api/workspace.ts";
import { treeBuilder } from "../../web/src/pages/workspace/model/todo-tree.ts";
import { rangeMerged, withoutOrphans } from "../../web/src/pages/workspace/store/todo-pages.ts";
import { createWorkspaceStore, type StoreApi } from "../../web/src/pages/workspace/store/workspace-store.ts";
import { event, OPEN, openState, set, todo } from "./spa-store.fixtures.ts";

/*
 * Issue 43: the SPA loads a set in pages (first one shown at once, the rest in the background),
 * keeps applying events meanwhile, and never shows a page read before a change it has applied.
 */

const at = (n: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString();
const PERMS = openState().open?.list?.permissions as TodoList["permissions"];

/** A set of `n` todos served `size` at a time by creation, as the server pages it; `hold` keeps page `k` back. */
function pagedApi(all: Todo[]) {
  const calls: string[] = [];
  const gates = new Map<string, Promise<void>>();
  const api = {
    sets: async () => ({ sets: [set(OPEN, { total: all.length, pending: all.length })], role: "owner" as const }),
    todos: async (_team: string, _set: string, page?: { limit: number; cursor?: string }) => {
      const from = page?.cursor ? Number(page.cursor) : 0;
      calls.push(`page ${from}`);
      await gates.get(String(from));
      if (!page) return { todos: all, role: "owner" as const, permissions: PERMS };
      const todos = all.slice(from, from + page.limit);
      const next = from + page.limit < all.length ? String(from + page.limit) : null;
      return { todos, role: "owner" as const, permissions: PERMS, nextCursor: next };
    },
  } as unknown as StoreApi;
  const hold = (cursor: number) => {
    let release = () => {};
    gates.set(
      String(cursor),
      new Promise((resolve) => {
        release = resolve;
      }),
    );
    return () => {
      gates.delete(String(cursor));
      release();
    };
  };
  return { api, calls, hold };
}

const many = (n: number) => Array.from({ length: n }, (_, i) => todo(`t${i}`, { sortOrder: i, createdAt: at(i) }));
const settle = () => Bun.sleep(50);

describe("the SPA loads a set in pages (issue 43)", () => {
  it("shows the first page at once, the rest in the background; counts stay the server's until all came", async () => {
    const all = many(1500);
    const { api, calls, hold } = pagedApi(all);
    const release = hold(200);
    const store = createWorkspaceStore("team-1", api);
    store.start();
    store.openSet(OPEN);
    await settle();
    expect(store.state.value.open?.list?.todos).toHaveLength(200);
    expect(store.state.value.open?.loading).toBe(true);
    expect(store.state.value.sets?.[0]?.total).toBe(1500);
    release();
    await settle();
    expect(calls).toEqual(["page 0", "page 200", "page 1200"]);
    expect(store.state.value.open?.list?.todos).toHaveLength(1500);
    expect(store.state.value.open?.loading).toBeUndefined();
    store.stop();
  });

  it("reads a page again when an event reached the set while it was on the way, and applies events to what came", async () => {
    const all = many(400);
    const { api, calls, hold } = pagedApi(all);
    const release = hold(200);
    const store = createWorkspaceStore("team-1", api);
    store.start();
    store.openSet(OPEN);
    await settle();
    // t5 came with the first page: renamed at once. t300 has not come: its page is read again.
    store.receive(event("todo:updated", OPEN, { ...(all[5] as Todo), title: "renamed" }));
    all[300] = { ...(all[300] as Todo), title: "changed meanwhile" };
    release();
    await settle();
    expect(calls).toEqual(["page 0", "page 200", "page 200"]);
    const titles = new Map(store.state.value.open?.list?.todos.map((t) => [t.id, t.title]));
    expect([titles.get("t5"), titles.get("t300"), titles.size]).toEqual(["renamed", "changed meanwhile", 400]);
    store.stop();
  });

  it("a page's range replaces what the list held there: a todo deleted meanwhile goes, one added stays", () => {
    const list = [todo("a", { createdAt: at(1) }), todo("b", { createdAt: at(2) }), todo("late", { createdAt: at(9) })];
    const merged = rangeMerged(list, [todo("a", { createdAt: at(1), title: "A" })], { after: null, upTo: [at(2), "b"] });
    expect(merged.map((t) => t.title)).toEqual(["A", "late"]);
    // The same range read again with nothing changed: the same array, so nothing renders again.
    expect(rangeMerged(merged, [merged[0] as Todo], { after: null, upTo: [at(2), "b"] })).toBe(merged);
  });

  it("holds sub-todos whose parent has not come, with their own sub-todos", () => {
    const list = [todo("root"), todo("kid", { parentId: "root" }), todo("orphan", { parentId: "later" }), todo("grandchild", { parentId: "orphan" })];
    expect(withoutOrphans(list).map((t) => t.id)).toEqual(["root", "kid"]);
  });

  it("builds the tree again keeping the nodes whose todos did not change, so their rows are not rendered again", () => {
    const build = treeBuilder();
    const todos = [todo("a", { sortOrder: 0 }), todo("a1", { parentId: "a" }), todo("b", { sortOrder: 1 })];
    const first = build(todos);
    const second = build([todos[0] as Todo, todos[1] as Todo, { ...(todos[2] as Todo), title: "B" }]);
    expect(second[0]).toBe(first[0] as (typeof first)[number]);
    expect(second[1]).not.toBe(first[1] as (typeof first)[number]);
    const third = build([todos[0] as Todo, { ...(todos[1] as Todo), completed: true }, second[1] as Todo]);
    expect(third[0]).not.toBe(second[0] as (typeof second)[number]);
  });
});
