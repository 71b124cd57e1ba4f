import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { sql } from "drizzle-orm";
import { startApp, type TestApp } from "../helpers/app.ts";
import type { SignedUp } from "../helpers/identity.ts";
import { signUp } from "../helpers/identity.ts";
import { runOnOtherConnection } from "../helpers/other-connection.ts";
import { teamOwner, workspaceSignIn } from "../helpers/workspace.ts";
import { todoSets } from "../../src/workspace/storage/sets.table.ts";
type Overrides = Record<string, Record<string, boolean>>;

/** Alice owns the team; Bob is a member and Carol an admin, all signed in to the workspace and known to it. */
async function todoTeam(app: TestApp) {
  const { user: alice, team } = await teamOwner(app, "alice");
  const join = async (username: string, role: string) => {
    const user = await signUp(app, username);
    const res = await alice.browser.json("POST", `/api/oauth/me/teams/${team.id}/members`, { username, role });
    if (res.status !== 201) throw new Error(`adding ${username} failed: ${res.status}`);
    await workspaceSignIn(app, user);
    return user;
  };
  const bob = await join("bob", "member");
  const carol = await join("carol", "admin");
  const api = (user: SignedUp, method: string, path: string, body?: unknown) => user.browser.json(method, `/api/teams/${team.id}${path}`, body);
  // Members become known to the workspace by calling it.
  for (const user of [alice, bob, carol]) await api(user, "GET", "/members");
  let order = 0;
  /** Sets are inserted directly: their endpoints are built elsewhere. */
  const makeSet = async (name: string, permissions: Overrides | null = null, teamId = team.id) => {
    const id = crypto.randomUUID();
    await app.ctx.db.insert(todoSets).values({ id, teamId, userId: alice.user.id, name, sortOrder: order++, createdAt: Date.now(), permissions }).run();
    return id;
  };
  const create = async (user: SignedUp, setId: string, title: string, parentId?: string) => {
    const res = await api(user, "POST", `/sets/${setId}/todos`, { title, parentId });
    if (res.status !== 201) throw new Error(`create ${title}: ${res.status} ${JSON.stringify(res.data)}`);
    return res.data.todo as { id: string; title: string; sortOrder: number; parentId: string | null };
  };
  const list = async (user: SignedUp, setId: string) => (await api(user, "GET", `/sets/${setId}/todos`)).data.todos as any[];
  return { alice, bob, carol, team, api, makeSet, create, list };
}

let app: TestApp;
let T: Awaited<ReturnType<typeof todoTeam>>;
beforeAll(async () => {
  app = await startApp();
  T = await todoTeam(app);
});
afterAll(() => app.stop());

const expectError = (res: { status: number; data: any }, status: number, error: string, code: string) => {
  expect(res.data).toEqual({ error, code });
  expect(res.status).toBe(status);
};

describe("spec 2 section 4.2: list and create", () => {
  it("creates at the end of its list and lists sub-todos with role and permissions, by sortOrder", async () => {
    const setId = await T.makeSet("Groceries");
    const milk = await T.create(T.alice, setId, "Milk");
    const eggs = await T.create(T.bob, setId, "Eggs");
    const sub = await T.create(T.alice, setId, "Oat milk", milk.id);
    expect([milk.sortOrder, eggs.sortOrder, sub.sortOrder]).toEqual([0, 1, 0]);
    const res = await T.api(T.bob, "GET", `/sets/${setId}/todos`);
    expect(res.status).toBe(200);
    expect(res.data.role).toBe("member");
    expect(res.data.permissions.create_todos).toBe(true);
    expect(res.data.permissions.assign_todos).toBe(false);
    expect(Object.keys(res.data.permissions)).toHaveLength(16);
    expect(res.data.todos.map((t: any) => t.title)).toEqual(["Milk", "Oat milk", "Eggs"]);
    const oat = res.data.todos[1];
    expect(oat).toEqual({
      id: sub.id,
      userId: T.alice.user.id,
      parentId: milk.id,
      title: "Oat milk",
      completed: false,
      sortOrder: 0,
      dueDate: null,
      dueTime: null,
      commentCount: 0,
      assignees: [],
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
      updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
    });
    expect((await T.api(T.alice, "GET", `/sets/${setId}/todos`)).data.role).toBe("owner");
  });

  it("answers application/json, and a list read twice reflects every write in between, from any connection", async () => {
    const setId = await T.makeSet("Cached");
    const milk = await T.create(T.alice, setId, "Milk");
    const first = await T.api(T.alice, "GET", `/sets/${setId}/todos`);
    expect(first.headers.get("content-type")).toStartWith("application/json");
    expect((await T.list(T.alice, setId)).map((t) => t.commentCount)).toEqual([0]);
    await T.api(T.alice, "POST", `/todos/${milk.id}/comments`, { body: "Skimmed" });
    expect((await T.list(T.alice, setId)).map((t) => t.commentCount)).toEqual([1]);
    // Another connection (the CLI, a second process or instance) writes straight into the database.
    await runOnOtherConnection(app, "UPDATE todos SET title = 'Whole milk' WHERE id = ?", [milk.id]);
    expect((await T.list(T.alice, setId)).map((t) => t.title)).toEqual(["Whole milk"]);
  });

  it("400 Title is required on create with an empty or missing title", async () => {
    const setId = await T.makeSet("Empty titles");
    expectError(await T.api(T.alice, "POST", `/sets/${setId}/todos`, { title: "  " }), 400, "Title is required", "title_required");
    expectError(await T.api(T.alice, "POST", `/sets/${setId}/todos`, {}), 400, "Title is required", "title_required");
    expect(await T.list(T.alice, setId)).toEqual([]);
  });

  it("409 on a duplicate sibling title; the same title under another parent is fine", async () => {
    const setId = await T.makeSet("Dupes");
    const a = await T.create(T.alice, setId, "A");
    await T.create(T.alice, setId, "B");
    expectError(await T.api(T.alice, "POST", `/sets/${setId}/todos`, { title: "B" }), 409, "Todo item title already exists among sibling todos", "title_taken");
    await T.create(T.alice, setId, "B", a.id);
    expect(await T.list(T.alice, setId)).toHaveLength(3);
  });

  it("403 No permission: create_todos / add_subtodos", async () => {
    const noCreate = await T.makeSet("No create", { member: { create_todos: false } });
    expectError(await T.api(T.bob, "POST", `/sets/${noCreate}/todos`, { title: "x" }), 403, "No permission: create_todos", "no_permission_create_todos");
    const noSub = await T.makeSet("No sub", { member: { add_subtodos: false } });
    const parent = await T.create(T.bob, noSub, "Parent");
    expectError(
      await T.api(T.bob, "POST", `/sets/${noSub}/todos`, { title: "child", parentId: parent.id }),
      403,
      "No permission: add_subtodos",
      "no_permission_add_subtodos",
    );
    expect(await T.list(T.alice, noSub)).toHaveLength(1);
  });

  it("answers a missing permission or an unknown object before a bad title", async () => {
    const noCreate = await T.makeSet("No create either", { member: { create_todos: false } });
    expectError(await T.api(T.bob, "POST", `/sets/${noCreate}/todos`, { title: "" }), 403, "No permission: create_todos", "no_permission_create_todos");
    expectError(await T.api(T.alice, "POST", `/sets/${crypto.randomUUID()}/todos`, { title: "" }), 404, "Set not found", "set_not_found");
    expectError(await T.api(T.alice, "PATCH", `/todos/${crypto.randomUUID()}`, { title: "" }), 404, "Not found", "todo_not_found");
  });

  it("stores titles without control characters or broken surrogates, and answers 403 for a team id that decodes oddly", async () => {
    const setId = await T.makeSet("Odd text");
    const made = await T.create(T.alice, setId, "Tab\there\u0000 \ud800end");
    expect(made.title).toBe("Tab here  \ufffdend");
    for (const team of ["%25", "%2525", encodeURIComponent(`personal%3A${T.alice.user.id}`)]) {
      const res = await T.alice.browser.json("GET", `/api/teams/${team}/sets`);
      expect(res).toMatchObject({ status: 403, data: { error: "Forbidden" } });
    }
  });

  it("assigned-expand is a beacon: any body, even broken JSON, answers {ok:true}", async () => {
    for (const body of ["not json", "", '{"setId": 5}']) {
      const res = await T.alice.browser.fetch(`/api/teams/${T.team.id}/assigned-expand`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ ok: true });
    }
  });

  it("404 Set not found and Parent todo not found (parent in another set)", async () => {
    const other = await T.makeSet("Elsewhere");
    const foreignParent = await T.create(T.alice, other, "Far");
    const setId = await T.makeSet("Here");
    expectError(await T.api(T.alice, "POST", `/sets/${crypto.randomUUID()}/todos`, { title: "x" }), 404, "Set not found", "set_not_found");
    expectError(await T.api(T.alice, "GET", `/sets/${crypto.randomUUID()}/todos`), 404, "Set not found", "set_not_found");
    expectError(
      await T.api(T.alice, "POST", `/sets/${setId}/todos`, { title: "x", parentId: foreignParent.id }),
      404,
      "Parent todo not found",
      "parent_not_found",
    );
    expectError(
      await T.api(T.alice, "POST", `/sets/${setId}/todos`, { title: "x", parentId: crypto.randomUUID() }),
      404,
      "Parent todo not found",
      "parent_not_found",
    );
  });

  it("404 Set not found for a set of another team", async () => {
    const foreign = await T.makeSet("Foreign", null, "personal:someone");
    expectError(await T.api(T.alice, "GET", `/sets/${foreign}/todos`), 404, "Set not found", "set_not_found");
  });

  it("403 Forbidden for a non-member, and for a set whose view_todos is revoked", async () => {
    const setId = await T.makeSet("Hidden", { member: { view_todos: false } });
    expectError(await T.api(T.bob, "GET", `/sets/${setId}/todos`), 403, "Forbidden", "forbidden");
    expect((await T.api(T.alice, "GET", `/sets/${setId}/todos`)).status).toBe(200);
    const dave = await signUp(app, "dave");
    await workspaceSignIn(app, dave);
    expectError(await T.api(dave, "GET", `/sets/${setId}/todos`), 403, "Forbidden", "forbidden");
    expectError(await T.api(dave, "POST", `/sets/${setId}/todos`, { title: "x" }), 403, "Forbidden", "forbidden");
  });

  it("401 Unauthorized without a workspace session", async () => {
    const setId = await T.makeSet("Anon");
    expectError(await app.client().json("GET", `/api/teams/${T.team.id}/sets/${setId}/todos`), 401, "Unauthorized", "unauthorized");
  });

  it("refuses a malformed body with 400 and creates nothing", async () => {
    const setId = await T.makeSet("Malformed");
    expect((await T.api(T.alice, "POST", `/sets/${setId}/todos`, { title: 42 })).status).toBe(400);
    expect((await T.api(T.alice, "POST", `/sets/${setId}/todos`, "{nope")).status).toBe(400);
    expect(await T.list(T.alice, setId)).toEqual([]);
  });
});

describe("spec 2 section 4.2: PATCH per the field permission table", () => {
  it("title: own todo with edit_own_todos is allowed, refused without it", async () => {
    const setId = await T.makeSet("Own titles");
    const todo = await T.create(T.bob, setId, "Mine");
    expect((await T.api(T.bob, "PATCH", `/todos/${todo.id}`, { title: "Mine too" })).data).toEqual({ ok: true });
    const locked = await T.makeSet("Own titles locked", { member: { edit_own_todos: false } });
    const other = await T.create(T.bob, locked, "Mine");
    expectError(await T.api(T.bob, "PATCH", `/todos/${other.id}`, { title: "Changed" }), 403, "No permission to edit", "no_permission_to_edit");
    expect((await T.list(T.bob, setId))[0].title).toBe("Mine too");
    expect((await T.list(T.bob, locked))[0].title).toBe("Mine");
  });

  it("title: others' todo needs edit_any_todo", async () => {
    const setId = await T.makeSet("Any titles");
    const todo = await T.create(T.alice, setId, "Alice's");
    expectError(await T.api(T.bob, "PATCH", `/todos/${todo.id}`, { title: "Bob's now" }), 403, "No permission to edit", "no_permission_to_edit");
    expect((await T.api(T.carol, "PATCH", `/todos/${todo.id}`, { title: "Carol's now" })).data).toEqual({ ok: true });
    expect((await T.list(T.alice, setId))[0].title).toBe("Carol's now");
  });

  it("completed: always allowed on one's own todo, others' need complete_any_todo", async () => {
    const setId = await T.makeSet("Completion", { member: { complete_any_todo: false, edit_own_todos: false } });
    const own = await T.create(T.bob, setId, "Bob's");
    const others = await T.create(T.alice, setId, "Alice's");
    expect((await T.api(T.bob, "PATCH", `/todos/${own.id}`, { completed: true })).data).toEqual({ ok: true });
    expectError(
      await T.api(T.bob, "PATCH", `/todos/${others.id}`, { completed: true }),
      403,
      "No permission to toggle completion",
      "no_permission_to_toggle_completion",
    );
    expect((await T.api(T.carol, "PATCH", `/todos/${others.id}`, { completed: true })).data).toEqual({ ok: true });
    expect((await T.api(T.carol, "PATCH", `/todos/${others.id}`, { completed: false })).status).toBe(200);
    expect((await T.list(T.alice, setId)).map((t) => t.completed)).toEqual([true, false]);
  });

  it("sortOrder: needs reorder_todos, even on one's own todo", async () => {
    const setId = await T.makeSet("Sort");
    const own = await T.create(T.bob, setId, "Bob's");
    expectError(await T.api(T.bob, "PATCH", `/todos/${own.id}`, { sortOrder: 5 }), 403, "No permission to reorder", "no_permission_to_reorder");
    expect((await T.api(T.alice, "PATCH", `/todos/${own.id}`, { sortOrder: 5 })).data).toEqual({ ok: true });
    expect((await T.list(T.alice, setId))[0].sortOrder).toBe(5);
  });

  it("a refused field changes none of the others", async () => {
    const setId = await T.makeSet("Atomic patch");
    const todo = await T.create(T.bob, setId, "Bob's");
    expectError(await T.api(T.bob, "PATCH", `/todos/${todo.id}`, { title: "New", sortOrder: 3 }), 403, "No permission to reorder", "no_permission_to_reorder");
    expect((await T.list(T.bob, setId))[0]).toMatchObject({ title: "Bob's", sortOrder: 0 });
  });

  it("400 Title is required, 409 on a sibling's title, 404 Not found, 400 on an empty patch", async () => {
    const setId = await T.makeSet("Patch errors");
    const a = await T.create(T.alice, setId, "A");
    await T.create(T.alice, setId, "B");
    expectError(await T.api(T.alice, "PATCH", `/todos/${a.id}`, { title: " " }), 400, "Title is required", "title_required");
    expectError(await T.api(T.alice, "PATCH", `/todos/${a.id}`, { title: "B" }), 409, "Todo item title already exists among sibling todos", "title_taken");
    expect((await T.api(T.alice, "PATCH", `/todos/${a.id}`, { title: "A" })).status).toBe(200);
    expectError(await T.api(T.alice, "PATCH", `/todos/${crypto.randomUUID()}`, { title: "C" }), 404, "Not found", "todo_not_found");
    expectError(await T.api(T.alice, "PATCH", `/todos/${a.id}`, {}), 400, "No updates", "no_updates");
    expect((await T.api(T.alice, "PATCH", `/todos/${a.id}`, { completed: "yes" })).status).toBe(400);
    expect((await T.list(T.alice, setId)).map((t) => t.title)).toEqual(["A", "B"]);
  });
});

describe("spec 2 section 4.2: delete", () => {
  it("deletes one's own todo with its subtree and comments", async () => {
    const setId = await T.makeSet("Delete own");
    const root = await T.create(T.bob, setId, "Root");
    const child = await T.create(T.bob, setId, "Child", root.id);
    await T.create(T.bob, setId, "Grandchild", child.id);
    await T.create(T.bob, setId, "Keep");
    expect((await T.api(T.bob, "POST", `/todos/${child.id}/comments`, { body: "hi" })).status).toBe(201);
    expect((await T.api(T.bob, "DELETE", `/todos/${root.id}`)).data).toEqual({ ok: true });
    expect((await T.list(T.bob, setId)).map((t) => t.title)).toEqual(["Keep"]);
    const [left] = await app.ctx.db.all<{ n: number }>(sql`SELECT count(*) AS n FROM todo_comments WHERE todo_id = ${child.id}`);
    expect(left?.n).toBe(0);
  });

  it("403 No permission to delete: others' todo without delete_any_todo, own without delete_own_todos", async () => {
    const setId = await T.makeSet("Delete refused");
    const others = await T.create(T.alice, setId, "Alice's");
    expectError(await T.api(T.bob, "DELETE", `/todos/${others.id}`), 403, "No permission to delete", "no_permission_to_delete");
    const locked = await T.makeSet("Delete own locked", { member: { delete_own_todos: false } });
    const own = await T.create(T.bob, locked, "Bob's");
    expectError(await T.api(T.bob, "DELETE", `/todos/${own.id}`), 403, "No permission to delete", "no_permission_to_delete");
    expect((await T.api(T.carol, "DELETE", `/todos/${others.id}`)).data).toEqual({ ok: true });
    expect(await T.list(T.alice, locked)).toHaveLength(1);
    expectError(await T.api(T.alice, "DELETE", `/todos/${others.id}`), 404, "Not found", "todo_not_found");
  });
});

describe("spec 2 section 4.2: reorder", () => {
  it("reorders with reorder_todos", async () => {
    const setId = await T.makeSet("Reorder");
    const a = await T.create(T.alice, setId, "A");
    const b = await T.create(T.alice, setId, "B");
    const res = await T.api(T.carol, "POST", "/todos/reorder", {
      items: [
        { id: a.id, sortOrder: 1 },
        { id: b.id, sortOrder: 0 },
      ],
      setId,
    });
    expect(res.data).toEqual({ ok: true });
    expect((await T.list(T.alice, setId)).map((t) => t.title)).toEqual(["B", "A"]);
  });

  it("403 without reorder_todos, 400 No items, 404 for an unknown todo: nothing changes", async () => {
    const setId = await T.makeSet("Reorder refused");
    const a = await T.create(T.alice, setId, "A");
    const b = await T.create(T.alice, setId, "B");
    expectError(
      await T.api(T.bob, "POST", "/todos/reorder", { items: [{ id: a.id, sortOrder: 9 }] }),
      403,
      "No permission to reorder",
      "no_permission_to_reorder",
    );
    expectError(await T.api(T.alice, "POST", "/todos/reorder", { items: [] }), 400, "No items", "no_items");
    expectError(await T.api(T.alice, "POST", "/todos/reorder", {}), 400, "No items", "no_items");
    expectError(
      await T.api(T.alice, "POST", "/todos/reorder", {
        items: [
          { id: b.id, sortOrder: 9 },
          { id: crypto.randomUUID(), sortOrder: 1 },
        ],
      }),
      404,
      "Not found",
      "todo_not_found",
    );
    expectError(
      await T.api(T.alice, "POST", "/todos/reorder", { items: [{ id: a.id, sortOrder: 9 }], setId: crypto.randomUUID() }),
      404,
      "Set not found",
      "set_not_found",
    );
    expect((await T.list(T.alice, setId)).map((t) => t.sortOrder)).toEqual([0, 1]);
  });
});

describe("spec 2 section 4.2: move", () => {
  it("moves a sub-todo with its subtree to the bottom or top of another set as a root", async () => {
    const source = await T.makeSet("Move source");
    const target = await T.makeSet("Move target");
    const root = await T.create(T.alice, source, "Root");
    const mid = await T.create(T.alice, source, "Mid", root.id);
    const leaf = await T.create(T.alice, source, "Leaf", mid.id);
    await T.create(T.alice, target, "T1");
    await T.create(T.alice, target, "T2");
    expect((await T.api(T.alice, "POST", `/todos/${mid.id}/move`, { targetSetId: target })).data).toEqual({ ok: true });
    // Flat by sortOrder (spec 2 section 4.2), ties by creation: Leaf is older than T1.
    let moved = await T.list(T.alice, target);
    expect(moved.map((t) => [t.title, t.parentId, t.sortOrder])).toEqual([
      ["Leaf", mid.id, 0],
      ["T1", null, 0],
      ["T2", null, 1],
      ["Mid", null, 2],
    ]);
    expect((await T.list(T.alice, source)).map((t) => t.title)).toEqual(["Root"]);
    expect((await T.api(T.alice, "POST", `/todos/${mid.id}/move`, { targetSetId: source, insertAt: "top" })).data).toEqual({ ok: true });
    moved = await T.list(T.alice, source);
    expect(moved.map((t) => [t.title, t.sortOrder])).toEqual([
      ["Mid", 0],
      ["Leaf", 0],
      ["Root", 1],
    ]);
    expect(moved.find((t) => t.id === leaf.id).parentId).toBe(mid.id);
  });

  it("own todo with edit_own_todos may be moved; without edit rights 403 No permission to move this todo", async () => {
    const source = await T.makeSet("Move perms source");
    const target = await T.makeSet("Move perms target");
    const own = await T.create(T.bob, source, "Bob's");
    const others = await T.create(T.alice, source, "Alice's");
    expect((await T.api(T.bob, "POST", `/todos/${own.id}/move`, { targetSetId: target })).data).toEqual({ ok: true });
    expectError(
      await T.api(T.bob, "POST", `/todos/${others.id}/move`, { targetSetId: target }),
      403,
      "No permission to move this todo",
      "no_permission_to_move",
    );
    expect((await T.list(T.alice, source)).map((t) => t.title)).toEqual(["Alice's"]);
    // edit_any_todo (an admin's default) moves others' todos.
    expect((await T.api(T.carol, "POST", `/todos/${others.id}/move`, { targetSetId: target })).data).toEqual({ ok: true });
    expect((await T.list(T.alice, target)).map((t) => t.title)).toEqual(["Bob's", "Alice's"]);
  });

  it("403 No permission to add todos to the target set without create_todos there", async () => {
    const source = await T.makeSet("Move target refused source");
    const target = await T.makeSet("Move target refused", { member: { create_todos: false } });
    const own = await T.create(T.bob, source, "Bob's");
    expectError(
      await T.api(T.bob, "POST", `/todos/${own.id}/move`, { targetSetId: target }),
      403,
      "No permission to add todos to the target set",
      "no_permission_to_add_to_target_set",
    );
    expect(await T.list(T.bob, target)).toEqual([]);
  });

  it("400 targetSetId is required, 404 Not found / Target set not found, 409 on a root title clash", async () => {
    const source = await T.makeSet("Move errors source");
    const target = await T.makeSet("Move errors target");
    const todo = await T.create(T.alice, source, "Same");
    await T.create(T.alice, target, "Same");
    expectError(await T.api(T.alice, "POST", `/todos/${todo.id}/move`, {}), 400, "targetSetId is required", "target_set_required");
    expectError(await T.api(T.alice, "POST", `/todos/${crypto.randomUUID()}/move`, { targetSetId: target }), 404, "Not found", "todo_not_found");
    expectError(
      await T.api(T.alice, "POST", `/todos/${todo.id}/move`, { targetSetId: crypto.randomUUID() }),
      404,
      "Target set not found",
      "target_set_not_found",
    );
    expectError(
      await T.api(T.alice, "POST", `/todos/${todo.id}/move`, { targetSetId: target }),
      409,
      "Todo item title already exists among sibling todos",
      "title_taken",
    );
    expect(await T.list(T.alice, source)).toHaveLength(1);
  });
});

describe("spec 2 section 4.2: assignees, members, assigned-to-me", () => {
  it("lists members known to the workspace", async () => {
    const res = await T.api(T.bob, "GET", "/members");
    expect(res.status).toBe(200);
    expect(res.data.members.map((m: any) => m.username).sort()).toEqual(["alice", "bob", "carol"]);
    expect(res.data.members.find((m: any) => m.username === "bob")).toEqual({ userId: T.bob.user.id, name: "bob", username: "bob", avatarUrl: null });
  });

  it("personal spaces list only the caller", async () => {
    const res = await T.bob.browser.json("GET", `/api/teams/personal:${T.bob.user.id}/members`);
    expect(res.data.members.map((m: any) => m.userId)).toEqual([T.bob.user.id]);
    expectError(await T.alice.browser.json("GET", `/api/teams/personal:${T.bob.user.id}/members`), 403, "Forbidden", "forbidden");
  });

  it("assigns the full list, ignores non-members, unassigns with []", async () => {
    const setId = await T.makeSet("Assign");
    const todo = await T.create(T.alice, setId, "Job");
    const res = await T.api(T.carol, "PUT", `/todos/${todo.id}/assignees`, { userIds: [T.bob.user.id, crypto.randomUUID(), T.alice.user.id] });
    expect(res.status).toBe(200);
    expect(res.data.ok).toBe(true);
    expect(res.data.assignees.map((a: any) => a.username).sort()).toEqual(["alice", "bob"]);
    expect((await T.list(T.alice, setId))[0].assignees).toHaveLength(2);
    expect((await T.api(T.carol, "PUT", `/todos/${todo.id}/assignees`, { userIds: [] })).data).toEqual({ ok: true, assignees: [] });
    expect((await T.list(T.alice, setId))[0].assignees).toEqual([]);
  });

  it("403 No permission to assign todos without assign_todos; 404 for an unknown todo", async () => {
    const setId = await T.makeSet("Assign refused");
    const todo = await T.create(T.bob, setId, "Bob's");
    expectError(
      await T.api(T.bob, "PUT", `/todos/${todo.id}/assignees`, { userIds: [T.bob.user.id] }),
      403,
      "No permission to assign todos",
      "no_permission_to_assign",
    );
    expectError(await T.api(T.alice, "PUT", `/todos/${crypto.randomUUID()}/assignees`, { userIds: [] }), 404, "Not found", "todo_not_found");
    expect((await T.api(T.alice, "PUT", `/todos/${todo.id}/assignees`, { userIds: "bob" })).status).toBe(400);
    expect((await T.list(T.bob, setId))[0].assignees).toEqual([]);
    const allowed = await T.makeSet("Assign allowed", { member: { assign_todos: true } });
    const mine = await T.create(T.bob, allowed, "Bob's");
    expect((await T.api(T.bob, "PUT", `/todos/${mine.id}/assignees`, { userIds: [T.bob.user.id] })).data.assignees).toHaveLength(1);
  });

  it("assigned-to-me groups open todos by set and remembers collapsed groups", async () => {
    const first = await T.makeSet("Mine first");
    const second = await T.makeSet("Mine second");
    const a = await T.create(T.alice, first, "A");
    const b = await T.create(T.alice, first, "B");
    const c = await T.create(T.alice, second, "C");
    for (const todo of [a, b, c]) await T.api(T.alice, "PUT", `/todos/${todo.id}/assignees`, { userIds: [T.carol.user.id] });
    await T.api(T.alice, "PATCH", `/todos/${b.id}`, { completed: true });
    expect((await T.api(T.carol, "POST", "/assigned-expand", { setId: second, expanded: false })).data).toEqual({ ok: true });
    expect((await T.api(T.carol, "POST", "/assigned-expand", { nonsense: 1 })).data).toEqual({ ok: true });
    expect((await T.api(T.carol, "POST", "/assigned-expand", { setId: crypto.randomUUID(), expanded: true })).data).toEqual({ ok: true });
    // A beacon sends text/plain; it counts the same.
    const beacon = await T.carol.browser.fetch(`/api/teams/${T.team.id}/assigned-expand`, {
      method: "POST",
      headers: { "content-type": "text/plain" },
      body: JSON.stringify({ setId: first, expanded: true }),
    });
    expect(await beacon.json()).toEqual({ ok: true });
    expect((await T.carol.browser.fetch(`/api/teams/${T.team.id}/assigned-expand`, { method: "POST" })).status).toBe(200);
    const res = await T.api(T.carol, "GET", "/assigned-to-me");
    expect(res.status).toBe(200);
    expect(res.data.groups.map((g: any) => [g.setName, g.todos.map((t: any) => t.title)])).toEqual([
      ["Mine first", ["A"]],
      ["Mine second", ["C"]],
    ]);
    expect(Object.keys(res.data.groups[0].todos[0]).sort()).toEqual(["completed", "createdAt", "id", "parentId", "setId", "title", "updatedAt"]);
    expect(res.data.expand).toEqual({ [first]: true, [second]: false });
  });
});
