import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { startApp, type TestApp } from "../helpers/app.ts";
import type { SignedUp } from "../helpers/identity.ts";
import { teamOwner } from "../helpers/workspace.ts";

/*
 * Spec 2 section 2.2, a title is unique among its siblings; issue 43: the check looks the title up
 * through an index on (set, parent, title), so adding a todo among 10,000 siblings reads one
 * index entry, not the siblings.
 */

let app: TestApp;
let alice: SignedUp;
let teamId: string;
let setId: string;
let parentId: string;
beforeAll(async () => {
  app = await startApp();
  ({
    user: alice,
    team: { id: teamId },
  } = await teamOwner(app, "alice"));
  setId = (await alice.browser.json("POST", `/api/teams/${teamId}/sets`, { name: "Crowded" })).data.set.id;
  parentId = (await alice.browser.json("POST", `/api/teams/${teamId}/sets/${setId}/todos`, { title: "Parent" })).data.todo.id;
  // 3,000 siblings at the top level and under Parent, in the shape the server writes.
  const insert = app.ctx.db.$client.prepare(
    "INSERT INTO todos (id, set_id, team_id, parent_id, user_id, title, completed, sort_order, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, 0, ?, 1, 1)",
  );
  app.ctx.db.$client.transaction(() => {
    for (let i = 0; i < 3000; i++) {
      insert.run(crypto.randomUUID(), setId, teamId, null, alice.user.id, `Root ${i}`, i + 1);
      insert.run(crypto.randomUUID(), setId, teamId, parentId, alice.user.id, `Child ${i}`, i);
    }
  })();
});
afterAll(() => app.stop());

const create = (title: string, parent: string | null = null) =>
  alice.browser.json("POST", `/api/teams/${teamId}/sets/${setId}/todos`, { title, parentId: parent });

describe("the sibling title check (spec 2 section 2.2, issue 43)", () => {
  it("refuses a sibling's title with the spec's 409, among thousands, at the top level and under a parent", async () => {
    const clash = { error: "Todo item title already exists among sibling todos", code: "title_taken" };
    expect(await create("Root 2999")).toMatchObject({ status: 409, data: clash });
    expect(await create("Child 1500", parentId)).toMatchObject({ status: 409, data: clash });
    // The same title elsewhere in the tree is no sibling's.
    expect((await create("Child 1500")).status).toBe(201);
    expect((await create("Root 1", parentId)).status).toBe(201);
    const patched = await alice.browser.json("PATCH", `/api/teams/${teamId}/todos/${parentId}`, { title: "Root 7" });
    expect(patched).toMatchObject({ status: 409, data: clash });
  });

  it("looks the title up through todos_sibling_title_idx, never scanning the siblings", () => {
    const plan = (where: string) =>
      app.ctx.db.$client
        .query<{ detail: string }, []>(`EXPLAIN QUERY PLAN SELECT id FROM todos WHERE ${where}`)
        .all()
        .map((r) => r.detail)
        .join("; ");
    expect(plan("set_id = 's' AND parent_id IS NULL AND title = 't'")).toContain("USING INDEX todos_sibling_title_idx (set_id=? AND parent_id=? AND title=?)");
    expect(plan("set_id = 's' AND parent_id = 'p' AND title = 't' AND id <> 'x'")).toContain(
      "USING INDEX todos_sibling_title_idx (set_id=? AND parent_id=? AND title=?)",
    );
  });
});
