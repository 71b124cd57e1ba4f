import { describe, expect, it } from "bun:test";
import type { TodoList } from "../../web/src/api/workspace.ts";
import { createWorkspaceStore, type StoreApi } from "../../web/src/pages/workspace/store/workspace-store.ts";
import { countsOf, event, OPEN, openState, OTHER, titles, todo } from "./spa-store.fixtures.ts";

// Longer than the store's longest pause before a refetch (150 ms).
const SETTLE_MS = 300;

/** A workspace API that answers from openState() and records each call as `METHOD what`. */
function fakeApi() {
  const calls: string[] = [];
  const initial = openState();
  let todosGate: Promise<void> = Promise.resolve();
  const api: StoreApi = {
    sets: async () => (calls.push("GET sets"), { sets: initial.sets ?? [], role: "owner" }),
    todos: async (_team, setId) => {
      calls.push(`GET todos ${setId}`);
      await todosGate;
      return initial.open?.list as TodoList;
    },
    createTodo: async (_team, _set, title, parentId) => (calls.push(`POST ${title}`), todo(title, { parentId, sortOrder: 9 })),
    patchTodo: async (_team, id) => (calls.push(`PATCH ${id}`), { ok: true }),
    deleteTodo: async (_team, id) => (calls.push(`DELETE ${id}`), { ok: true }),
    reorderTodos: async () => (calls.push("POST reorder"), { ok: true }),
    moveTodo: async (_team, id) => (calls.push(`POST move ${id}`), { ok: true }),
    setAssignees: async (_team, id) => (calls.push(`PUT assignees ${id}`), { ok: true, assignees: [] }),
    createSet: async () => {
      throw new Error("not used");
    },
    reorderSets: async () => (calls.push("POST reorder sets"), { ok: true }),
  };
  /** Holds the next todo lists back until the returned function is called. */
  const holdTodos = () => {
    let release = () => {};
    todosGate = new Promise((resolve) => (release = resolve));
    return release;
  };
  return { api, calls, holdTodos };
}

/** A store with the open set loaded, and no calls recorded yet. */
async function openStore() {
  const fake = fakeApi();
  const store = createWorkspaceStore("team-1", fake.api);
  store.start();
  store.openSet(OPEN);
  await Bun.sleep(10);
  fake.calls.length = 0;
  return { store, ...fake };
}

describe("the SPA store makes only the page's own write (the refactoring issue, item 7)", () => {
  it("completes, adds and renames with one request each; their echoes cause none", async () => {
    const { store, calls } = await openStore();
    await store.patchTodo(OPEN, "bread", { completed: true });
    store.receive(event("todo:updated", OPEN, todo("bread", { sortOrder: 1, completed: true })));
    const eggs = await store.createTodo(OPEN, "eggs", null);
    store.receive(event("todo:created", OPEN, eggs));
    await store.patchTodo(OPEN, "milk", { title: "Whole milk" });
    store.receive(event("todo:updated", OPEN, todo("milk", { title: "Whole milk" })));
    await Bun.sleep(SETTLE_MS);
    expect(calls).toEqual(["PATCH bread", "POST eggs", "PATCH milk"]);
    expect(titles(store.state.value)).toEqual(["Whole milk", "oat", "bread", "eggs"]);
    expect(countsOf(store.state.value, OPEN)).toEqual({ total: 3, completed: 1, pending: 2 });
    store.stop();
  });

  it("counts the target of its own move from the move's event, once", async () => {
    const { store, calls } = await openStore();
    await store.moveTodo(OPEN, "milk", OTHER, "bottom");
    const data = { todo: todo("milk", { sortOrder: 2 }), fromSetId: OPEN, toSetId: OTHER };
    store.receive(event("todo:moved", OPEN, data));
    store.receive(event("todo:moved", OTHER, data));
    await Bun.sleep(SETTLE_MS);
    expect(calls).toEqual(["POST move milk"]);
    expect(countsOf(store.state.value, OTHER)).toEqual({ total: 3, completed: 1, pending: 2 });
    store.stop();
  });
});

describe("the SPA store's open set", () => {
  it("stays open when the previous view closes its set after the next view opened this one", async () => {
    const { store, calls } = await openStore();
    // Preact runs an unmounted view's effect cleanup after paint: possibly after the next view's effect.
    store.openSet(OTHER);
    store.closeSet(OPEN);
    await Bun.sleep(SETTLE_MS);
    expect(store.state.value.open?.setId).toBe(OTHER);
    expect(store.state.value.open?.list).not.toBeNull();
    expect(calls).toEqual([`GET todos ${OTHER}`]);
    store.closeSet(OTHER);
    expect(store.state.value.open).toBeNull();
    store.stop();
  });
});

describe("the SPA store refetches only when it must", () => {
  it("fetches the sets once for a burst of changes it cannot count", async () => {
    const { store, calls } = await openStore();
    for (const id of ["a", "b", "c"]) store.receive(event("todo:deleted", OTHER, { id }));
    await Bun.sleep(SETTLE_MS);
    expect(calls).toEqual(["GET sets"]);
    store.stop();
  });

  it("fetches everything after a gap in the stream (refetch) or a reconnect", async () => {
    const { store, calls } = await openStore();
    store.refetchAll();
    await Bun.sleep(SETTLE_MS);
    expect(calls.sort()).toEqual(["GET sets", `GET todos ${OPEN}`]);
    store.stop();
  });

  it("fetches the open set again when a change arrives while its list is on the way", async () => {
    const { store, calls, holdTodos } = await openStore();
    const release = holdTodos();
    store.receive(event("set:imported", OPEN, { setId: OPEN, mode: "append", imported: 2 }));
    await Bun.sleep(SETTLE_MS);
    store.receive(event("todo:created", OPEN, todo("eggs")));
    release();
    await Bun.sleep(SETTLE_MS);
    expect(calls).toEqual([`GET todos ${OPEN}`, `GET todos ${OPEN}`]);
    store.stop();
  });
});
