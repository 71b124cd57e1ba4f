import { describe, expect, it } from "bun:test";
import { applyEvent } from "../../web/src/pages/workspace/store/apply-event.ts";
import { changeOpenTodos, type WorkspaceState } from "../../web/src/pages/workspace/store/state.ts";
import { todoAdded, todoPatched } from "../../web/src/pages/workspace/store/todo-changes.ts";
import { countsOf, event, OPEN, openState, OTHER, set, titles, todo } from "./spa-store.fixtures.ts";

/** Applies events in turn, collecting what had to be refetched. */
function play(state: WorkspaceState, ...events: ReturnType<typeof event>[]) {
  const refetch: string[] = [];
  for (const e of events) {
    const applied = applyEvent(state, e);
    state = applied.state;
    refetch.push(...applied.refetch);
  }
  return { state, refetch };
}

describe("the SPA store applies todo events to the open set (spec 2 section 6)", () => {
  it("adds a created todo, and its counts in the sidebar follow", () => {
    const { state, refetch } = play(openState(), event("todo:created", OPEN, todo("eggs", { sortOrder: 2, completed: true })));
    expect(titles(state)).toEqual(["milk", "oat", "bread", "eggs"]);
    expect(countsOf(state, OPEN)).toEqual({ total: 3, completed: 1, pending: 2 });
    expect(refetch).toEqual([]);
  });

  it("applies the echo of the page's own creation without adding it twice", () => {
    const eggs = todo("eggs", { sortOrder: 2 });
    const own = changeOpenTodos(openState(), OPEN, (todos) => todoAdded(todos, eggs)) as WorkspaceState;
    const { state, refetch } = play(own, event("todo:created", OPEN, eggs));
    expect(state).toEqual(own);
    expect(refetch).toEqual([]);
  });

  it("replaces an updated todo; the echo of the page's own completion changes nothing more", () => {
    const own = changeOpenTodos(openState(), OPEN, (todos) => todoPatched(todos, "bread", { completed: true })) as WorkspaceState;
    expect(countsOf(own, OPEN)).toEqual({ total: 2, completed: 1, pending: 1 });
    const echo = event("todo:updated", OPEN, todo("bread", { sortOrder: 1, completed: true }));
    const { state, refetch } = play(own, echo, echo);
    expect(state).toEqual(own);
    expect(refetch).toEqual([]);
  });

  it("renames from another page's update, and ignores an update read back after a delete", () => {
    const { state, refetch } = play(openState(), event("todo:updated", OPEN, todo("milk", { title: "Whole milk" })), event("todo:updated", OPEN, null));
    expect(titles(state)).toEqual(["Whole milk", "oat", "bread"]);
    expect(refetch).toEqual([]);
  });

  it("removes a deleted todo with its sub-todos, once however often it is told", () => {
    const deleted = event("todo:deleted", OPEN, { id: "milk" });
    const { state, refetch } = play(openState(), deleted, deleted);
    expect(titles(state)).toEqual(["bread"]);
    expect(countsOf(state, OPEN)).toEqual({ total: 1, completed: 0, pending: 1 });
    expect(refetch).toEqual([]);
  });

  it("reorders, assigns and counts comments from the payload", () => {
    const alice = { userId: "u2", name: "Alice", username: "alice", avatarUrl: null };
    const comment = { id: "c1", todoId: "bread", userId: "u2", body: "Rye", bodyHtml: "<p>Rye</p>", author: alice, createdAt: "2026-01-01T00:00:00.000Z" };
    const { state, refetch } = play(
      openState(),
      event("todo:reordered", OPEN, {
        setId: OPEN,
        items: [
          { id: "bread", sortOrder: 0 },
          { id: "milk", sortOrder: 1 },
        ],
      }),
      event("todo:assigned", OPEN, { todoId: "milk", assignees: [alice] }),
      event("comment:created", OPEN, comment),
      event("comment:created", OPEN, { ...comment, id: "c2" }),
      event("comment:deleted", OPEN, { id: "c1", todoId: "bread" }),
    );
    const byId = new Map(state.open?.list?.todos.map((t) => [t.id, t]));
    expect([byId.get("bread")?.sortOrder, byId.get("milk")?.sortOrder]).toEqual([0, 1]);
    expect(byId.get("milk")?.assignees).toEqual([alice]);
    expect(byId.get("bread")?.commentCount).toBe(1);
    expect(refetch).toEqual([]);
  });

  it("refetches the open set when an event arrives while its todos are still loading", () => {
    const loading: WorkspaceState = { ...openState(), open: { setId: OPEN, list: null } };
    expect(play(loading, event("todo:created", OPEN, todo("eggs"))).refetch).toEqual(["todos"]);
  });
});

describe("the SPA store keeps the sidebar counts of the other sets (spec 2 section 2.1)", () => {
  it("counts a created top-level todo, and not a sub-todo", () => {
    const { state, refetch } = play(
      openState(),
      event("todo:created", OTHER, todo("x", { completed: true })),
      event("todo:created", OTHER, todo("y", { parentId: "x" })),
    );
    expect(countsOf(state, OTHER)).toEqual({ total: 3, completed: 2, pending: 1 });
    expect(refetch).toEqual([]);
  });

  it("refetches the sets for a change whose effect on the counts the payload cannot tell", () => {
    expect(play(openState(), event("todo:updated", OTHER, todo("x", { completed: true }))).refetch).toEqual(["sets"]);
    expect(play(openState(), event("todo:deleted", OTHER, { id: "x" })).refetch).toEqual(["sets"]);
    // A sub-todo never counts.
    expect(play(openState(), event("todo:updated", OTHER, todo("y", { parentId: "x" }))).refetch).toEqual([]);
  });
});

describe("the SPA store follows a move (spec 2 section 4.2 move)", () => {
  const milk = todo("milk", { sortOrder: 3 });
  const data = { todo: milk, fromSetId: OPEN, toSetId: OTHER };

  it("takes the subtree out of the open source set and counts it in the target", () => {
    const { state, refetch } = play(openState(), event("todo:moved", OPEN, data), event("todo:moved", OTHER, data));
    expect(titles(state)).toEqual(["bread"]);
    expect(countsOf(state, OPEN)).toEqual({ total: 1, completed: 0, pending: 1 });
    expect(countsOf(state, OTHER)).toEqual({ total: 3, completed: 1, pending: 2 });
    expect(refetch).toEqual([]);
  });

  it("refetches the open target set, whose payload lacks the moved subtree, and the sets for the source", () => {
    const intoOpen = { todo: todo("x"), fromSetId: OTHER, toSetId: OPEN };
    expect(play(openState(), event("todo:moved", OTHER, intoOpen)).refetch).toEqual(["sets"]);
    expect(play(openState(), event("todo:moved", OPEN, intoOpen)).refetch).toEqual(["todos"]);
  });
});

describe("the SPA store applies set events", () => {
  it("merges a known set's new fields and keeps its counts; the echo of the page's own set changes nothing", () => {
    const { state, refetch } = play(openState(), event("set:updated", OTHER, { ...set(OTHER, { sortOrder: 1 }), name: "Errands" }));
    expect(state.sets?.find((s) => s.id === OTHER)).toMatchObject({ name: "Errands", total: 2, completed: 1 });
    expect(play(state, event("set:created", OTHER, set(OTHER, { sortOrder: 1, name: "Errands" }))).state).toEqual(state);
    expect(refetch).toEqual([]);
  });

  it("refetches the sets for a set it does not know (an imported set is not empty)", () => {
    expect(play(openState(), event("set:created", "new", set("new", { sortOrder: 2 }))).refetch).toEqual(["sets"]);
  });

  it("removes a deleted set and reorders the sets", () => {
    const { state, refetch } = play(
      openState(),
      event("set:reordered", null, {
        items: [
          { id: OTHER, sortOrder: 0 },
          { id: OPEN, sortOrder: 1 },
        ],
      }),
      event("set:deleted", OTHER, { id: OTHER }),
      event("set:deleted", OTHER, { id: OTHER }),
    );
    expect(state.sets?.map((s) => s.id)).toEqual([OPEN]);
    expect(refetch).toEqual([]);
  });

  it("refetches after an import: the open set's todos, or the sets for another set's counts", () => {
    expect(play(openState(), event("set:imported", OPEN, { setId: OPEN, mode: "append", imported: 4 })).refetch).toEqual(["todos"]);
    expect(play(openState(), event("set:imported", OTHER, { setId: OTHER, mode: "replace", imported: 4 })).refetch).toEqual(["sets"]);
  });
});
