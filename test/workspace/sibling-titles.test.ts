import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { sql } from "drizzle-orm";
import { todos } from "../../src/workspace/storage/todos.table.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import type { SignedUp } from "../helpers/identity.ts";
import { onPostgres } from "../helpers/pg-store.ts";
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
  const sibling = (title: string, parent: string | null, sortOrder: number) => ({
    id: crypto.randomUUID(),
    setId,
    teamId,
    parentId: parent,
    userId: alice.user.id,
    title,
    completed: false,
    sortOrder,
    createdAt: 1,
    updatedAt: 1,
  });
  const rows = Array.from({ length: 3000 }, (_, i) => [sibling(`Root ${i}`, null, i + 1), sibling(`Child ${i}`, parentId, i)]).flat();
  for (let i = 0; i < rows.length; i += 500)
    await app.ctx.db
      .insert(todos)
      .values(rows.slice(i, i + 500))
      .run();
});
afterAll(() => app.stop());

const create = (title: string, parent: string | null = null) =>
  alice.browser.json("POST", `/api/teams/${teamId}/sets/${setId}/todos`, { title, parentId: parent });

/** How the store looks up the crowded set's todos on `condition`: SQLite's EXPLAIN QUERY PLAN details, or PostgreSQL's EXPLAIN lines. */
async function planOf(condition: string): Promise<string> {
  const query = `SELECT id FROM todos WHERE set_id = '${setId}' AND ${condition}`;
  if (!onPostgres) return (await app.ctx.db.all<{ detail: string }>(sql.raw(`EXPLAIN QUERY PLAN ${query}`))).map((r) => r.detail).join("; ");
  return (await app.ctx.db.all<{ "QUERY PLAN": string }>(sql.raw(`EXPLAIN ${query}`))).map((r) => r["QUERY PLAN"]).join("; ");
}
/** The three columns matched in the index, on either store. */
const BY_SIBLING_TITLE = onPostgres
  ? /Index (Only )?Scan using todos_sibling_title_idx on todos.*Index Cond: \(\(set_id = .*\) AND \(parent_id (IS NULL|= '[^']+'::text)\) AND \(title = 't'::text\)\)/
  : /USING INDEX todos_sibling_title_idx \(set_id=\? AND parent_id=\? AND title=\?\)/;

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

  it("looks the title up through todos_sibling_title_idx, never scanning the siblings", async () => {
    // PostgreSQL's planner chooses by statistics: taken first, as its autovacuum would.
    if (onPostgres) await app.ctx.db.run(sql`ANALYZE todos`);
    expect(await planOf("parent_id IS NULL AND title = 't'")).toMatch(BY_SIBLING_TITLE);
    expect(await planOf(`parent_id = '${parentId}' AND title = 't' AND id <> 'x'`)).toMatch(BY_SIBLING_TITLE);
  });
});
