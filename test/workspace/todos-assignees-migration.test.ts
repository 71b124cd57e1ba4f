import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { todoSets } from "../../src/workspace/storage/sets.table.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { teamOwner } from "../helpers/workspace.ts";

// A file of its own: it needs a database whose assignee table is gone.
let app: TestApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(() => app.stop());

describe("spec 2 section 4.2: 503 when the assignee table is missing", () => {
  it("answers Assignment feature unavailable: database migration required", async () => {
    const { user, team } = await teamOwner(app, "alice");
    const setId = crypto.randomUUID();
    app.ctx.db.insert(todoSets).values({ id: setId, teamId: team.id, userId: user.user.id, name: "Old db", sortOrder: 0, createdAt: Date.now() }).run();
    const created = await user.browser.json("POST", `/api/teams/${team.id}/sets/${setId}/todos`, { title: "Job" });
    expect(created.status).toBe(201);
    app.ctx.db.$client.run("DROP TABLE todo_assignees");
    const res = await user.browser.json("PUT", `/api/teams/${team.id}/todos/${created.data.todo.id}/assignees`, { userIds: [user.user.id] });
    expect(res.data).toEqual({ error: "Assignment feature unavailable: database migration required" });
    expect(res.status).toBe(503);
  });
});
