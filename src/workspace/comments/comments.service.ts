import { cleanText } from "../../shared/text.ts";
import { and, asc, eq } from "drizzle-orm";
import type { AppContext } from "../../context/context.ts";
import { withTeamTx } from "../storage/team-tx.ts";
import { forbidden } from "../../shared/errors.ts";
import { canComment, canDeleteComment, canViewSet } from "../permissions/permissions.policy.ts";
import { permissionsOf } from "../permissions/permissions.resolve.ts";
import type { MemberActor } from "../permissions/actor.ts";
import { assigneesByTodo, findTodo } from "../storage/todos.repo.ts";
import { assigneesOrNone } from "../storage/assignee-table.ts";
import { memberCache, todos } from "../storage/todos.table.ts";
import { comments } from "../storage/comments.table.ts";
import { commentHtml } from "./comment-html.ts";
import { noticeComment, type TodoNoticeCtx } from "../notices/todo-notices.ts";
import { commentNotFound, commentRequired, noPermissionToComment, noPermissionToDeleteComment, todoNotFound } from "../storage/workspace.errors.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "bus" | "workspace">;
type AddCtx = Ctx & TodoNoticeCtx;

const selection = {
  id: comments.id,
  todoId: comments.todoId,
  userId: comments.userId,
  body: comments.body,
  createdAt: comments.createdAt,
  name: memberCache.name,
  username: memberCache.username,
  avatarUrl: memberCache.avatarUrl,
};

type Row = {
  id: string;
  todoId: string;
  userId: string;
  body: string;
  createdAt: number;
  name: string | null;
  username: string | null;
  avatarUrl: string | null;
};
const commentJson = (r: Row) => ({
  id: r.id,
  todoId: r.todoId,
  userId: r.userId,
  body: r.body,
  bodyHtml: commentHtml(r.body),
  author: { userId: r.userId, name: r.name ?? null, username: r.username ?? null, avatarUrl: r.avatarUrl ?? null },
  createdAt: new Date(r.createdAt).toISOString(),
});

const query = (ctx: Ctx, teamId: string) =>
  ctx.db
    .select(selection)
    .from(comments)
    .leftJoin(memberCache, and(eq(memberCache.teamId, teamId), eq(memberCache.userId, comments.userId)));

export async function listComments(ctx: Ctx, caller: MemberActor, todoId: string) {
  const todo = await findTodo(ctx, caller.teamId, todoId);
  if (!todo) throw todoNotFound();
  if (!canViewSet(caller, await permissionsOf(ctx, caller, todo.setId))) throw forbidden("view_todos revoked for this set");
  const rows = await query(ctx, caller.teamId).where(eq(comments.todoId, todoId)).orderBy(asc(comments.createdAt), asc(comments.id)).all();
  return { comments: rows.map(commentJson) };
}

export async function addComment(ctx: AddCtx, caller: MemberActor, todoId: string, body: string | undefined) {
  const text = cleanText(body ?? "");
  if (text === "") throw commentRequired();
  const { setId, ...answer } = await withTeamTx(ctx.db, caller.teamId, async () => {
    const todo = await findTodo(ctx, caller.teamId, todoId);
    if (!todo) throw todoNotFound();
    const perms = await permissionsOf(ctx, caller, todo.setId);
    // A set the caller may not view is closed to their comments as well as their eyes.
    if (!canViewSet(caller, perms)) throw forbidden("view_todos revoked for this set");
    if (!canComment(caller, perms)) throw noPermissionToComment();
    const id = crypto.randomUUID();
    await ctx.db.insert(comments).values({ id, todoId, teamId: caller.teamId, userId: caller.userId, body: text, createdAt: ctx.clock.now() }).run();
    const assignees = await assigneesOrNone(ctx.db, async () => (await assigneesByTodo(ctx, caller.teamId, [todoId])).get(todoId) ?? [], []);
    await noticeComment(
      ctx,
      caller,
      todo,
      assignees.map((a) => a.userId),
      text,
    );
    return { comment: commentJson((await query(ctx, caller.teamId).where(eq(comments.id, id)).get()) as Row), setId: todo.setId };
  });
  ctx.bus.publish({ type: "comment:created", teamId: caller.teamId, setId, data: answer.comment });
  return answer;
}

export async function deleteComment(ctx: Ctx, caller: MemberActor, commentId: string) {
  const row = await withTeamTx(ctx.db, caller.teamId, async () => {
    const row = await ctx.db
      .select({ userId: comments.userId, setId: todos.setId, todoId: comments.todoId })
      .from(comments)
      .innerJoin(todos, eq(todos.id, comments.todoId))
      .where(and(eq(comments.id, commentId), eq(comments.teamId, caller.teamId)))
      .get();
    if (!row) throw commentNotFound();
    const perms = await permissionsOf(ctx, caller, row.setId);
    if (!canViewSet(caller, perms)) throw forbidden("view_todos revoked for this set");
    if (!canDeleteComment(caller, perms, { ownerId: row.userId })) throw noPermissionToDeleteComment();
    await ctx.db.delete(comments).where(eq(comments.id, commentId)).run();
    return row;
  });
  ctx.bus.publish({ type: "comment:deleted", teamId: caller.teamId, setId: row.setId, data: { id: commentId, todoId: row.todoId } });
  return { ok: true as const };
}
