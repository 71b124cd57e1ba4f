import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { todoSets } from "../../src/workspace/storage/sets.table.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { signUp, type SignedUp } from "../helpers/identity.ts";
import { teamOwner, workspaceSignIn } from "../helpers/workspace.ts";

let app: TestApp;
let alice: SignedUp;
let bob: SignedUp;
let teamId: string;
let order = 0;
beforeAll(async () => {
  app = await startApp();
  const owner = await teamOwner(app, "alice");
  alice = owner.user;
  teamId = owner.team.id;
  bob = await signUp(app, "bob", { name: "Bob" });
  await alice.browser.json("POST", `/api/oauth/me/teams/${teamId}/members`, { username: "bob", role: "member" });
  await workspaceSignIn(app, bob);
});
afterAll(() => app.stop());

const api = (user: SignedUp, method: string, path: string, body?: unknown) => user.browser.json(method, `/api/teams/${teamId}${path}`, body);
const expectError = (res: { status: number; data: any }, status: number, error: string, code: string) => {
  expect(res.data).toEqual({ error, code });
  expect(res.status).toBe(status);
};
/** A set (inserted directly: set endpoints are built elsewhere) with one todo by `user`. */
async function todoIn(user: SignedUp, permissions: Record<string, Record<string, boolean>> | null = null) {
  const setId = crypto.randomUUID();
  await app.ctx.db
    .insert(todoSets)
    .values({ id: setId, teamId, userId: alice.user.id, name: `Set ${order}`, sortOrder: order++, createdAt: Date.now(), permissions })
    .run();
  const res = await api(user, "POST", `/sets/${setId}/todos`, { title: "Todo" });
  return { setId, todoId: res.data.todo.id as string };
}
const commentCount = async (setId: string) => (await api(alice, "GET", `/sets/${setId}/todos`)).data.todos[0].commentCount;

describe("ARCHITECTURE section 4: comments", () => {
  it("adds and lists comments with their authors, and keeps commentCount true", async () => {
    const { setId, todoId } = await todoIn(alice);
    const created = await api(bob, "POST", `/todos/${todoId}/comments`, { body: " Bought it " });
    expect(created.status).toBe(201);
    expect(created.data.comment).toMatchObject({
      todoId,
      userId: bob.user.id,
      body: "Bought it",
      author: { userId: bob.user.id, username: "bob", name: "Bob", avatarUrl: null },
    });
    await api(alice, "POST", `/todos/${todoId}/comments`, { body: "Thanks" });
    const list = await api(bob, "GET", `/todos/${todoId}/comments`);
    expect(list.data.comments.map((c: any) => c.body)).toEqual(["Bought it", "Thanks"]);
    expect(await commentCount(setId)).toBe(2);
    expect((await api(bob, "DELETE", `/comments/${created.data.comment.id}`)).data).toEqual({ ok: true });
    expect(await commentCount(setId)).toBe(1);
  });

  it("comment: refused without the key, with nothing stored", async () => {
    const { setId, todoId } = await todoIn(alice, { member: { comment: false } });
    expectError(await api(bob, "POST", `/todos/${todoId}/comments`, { body: "hi" }), 403, "No permission to comment", "no_permission_to_comment");
    expect(await commentCount(setId)).toBe(0);
  });

  it("delete_own_comments allows one's own, delete_any_comment is needed for others'", async () => {
    const { setId, todoId } = await todoIn(alice);
    const alices = (await api(alice, "POST", `/todos/${todoId}/comments`, { body: "Alice's" })).data.comment.id;
    const bobs = (await api(bob, "POST", `/todos/${todoId}/comments`, { body: "Bob's" })).data.comment.id;
    expectError(await api(bob, "DELETE", `/comments/${alices}`), 403, "No permission to delete comment", "no_permission_to_delete_comment");
    expect((await api(alice, "DELETE", `/comments/${bobs}`)).data).toEqual({ ok: true });
    expect(await commentCount(setId)).toBe(1);
    const locked = await todoIn(bob, { member: { delete_own_comments: false } });
    const own = (await api(bob, "POST", `/todos/${locked.todoId}/comments`, { body: "Mine" })).data.comment.id;
    expectError(await api(bob, "DELETE", `/comments/${own}`), 403, "No permission to delete comment", "no_permission_to_delete_comment");
    expect(await commentCount(locked.setId)).toBe(1);
  });

  it("400 for an empty body, 404 for unknown todos and comments, 403 when view_todos is revoked", async () => {
    const { setId, todoId } = await todoIn(alice, { member: { view_todos: false } });
    expectError(await api(alice, "POST", `/todos/${todoId}/comments`, { body: "  " }), 400, "Comment is required", "comment_required");
    expect((await api(alice, "POST", `/todos/${todoId}/comments`, { body: 5 })).status).toBe(400);
    expectError(await api(alice, "GET", `/todos/${crypto.randomUUID()}/comments`), 404, "Not found", "todo_not_found");
    expectError(await api(alice, "POST", `/todos/${crypto.randomUUID()}/comments`, { body: "x" }), 404, "Not found", "todo_not_found");
    expectError(await api(alice, "DELETE", `/comments/${crypto.randomUUID()}`), 404, "Comment not found", "comment_not_found");
    expectError(await api(bob, "GET", `/todos/${todoId}/comments`), 403, "Forbidden", "forbidden");
    // Nor can they comment on a todo they may not see.
    expectError(await api(bob, "POST", `/todos/${todoId}/comments`, { body: "Peek" }), 403, "Forbidden", "forbidden");
    expect(await commentCount(setId)).toBe(0);
  });

  it("answers each comment's Markdown as sanitized bodyHtml beside the text as written (issue 42)", async () => {
    const { todoId } = await todoIn(alice);
    const body = "**Bought** it, see [receipt](https://shop.example/r/1)\n<script>alert(1)</script> [x](javascript:alert(1))";
    const html =
      '<p><strong>Bought</strong> it, see <a href="https://shop.example/r/1" rel="noopener noreferrer nofollow" target="_blank">receipt</a><br />&lt;script&gt;alert(1)&lt;/script&gt; x</p>';
    const created = await api(bob, "POST", `/todos/${todoId}/comments`, { body });
    expect(created.data.comment).toMatchObject({ body, bodyHtml: html });
    expect((await api(alice, "GET", `/todos/${todoId}/comments`)).data.comments).toMatchObject([{ body, bodyHtml: html }]);
  });
});
