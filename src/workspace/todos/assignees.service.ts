import { and, asc, eq, inArray } from "drizzle-orm";
import type { AppContext } from "../../context/context.ts";
import type { AssignedGroup } from "../../contract/api/workspace.ts";
import { withTeamTx } from "../storage/team-tx.ts";
import { canAssign, canViewSet } from "../permissions/permissions.policy.ts";
import { permissionsOf } from "../permissions/permissions.resolve.ts";
import { todoSets } from "../storage/sets.table.ts";
import type { MemberActor } from "../permissions/actor.ts";
import { memberIdsAmong, type MembersCtx } from "../members/members.service.ts";
import * as E from "./todos.errors.ts";
import { type Assignee, assigneesByTodo, findTodo, INSERTION_ORDER } from "../storage/todos.repo.ts";
import { assignedExpand, todoAssignees, todos } from "../storage/todos.table.ts";
import { isAssignmentTableMissing } from "../storage/assignee-table.ts";
import { noticeAssignment, type TodoNoticeCtx } from "../notices/todo-notices.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "workspace">;

/** Spec 2 section 4.2: the full desired list; ids that are not team members are ignored. */
export async function replaceAssignees(ctx: MembersCtx & TodoNoticeCtx, caller: MemberActor, id: string, userIds: string[]) {
  let answer: { ok: true; assignees: Assignee[]; setId: string };
  try {
    // Membership may need the IdP (a network call): resolved before the transaction.
    const members = await memberIdsAmong(ctx, caller, userIds);
    answer = await withTeamTx(ctx.db, caller.teamId, async () => {
      const todo = await findTodo(ctx, caller.teamId, id);
      if (!todo) throw E.todoNotFound();
      if (!canAssign(caller, await permissionsOf(ctx, caller, todo.setId))) throw E.noPermissionToAssign();
      const before = await ctx.db.delete(todoAssignees).where(eq(todoAssignees.todoId, id)).returning({ userId: todoAssignees.userId }).all();
      if (members.length > 0)
        await ctx.db
          .insert(todoAssignees)
          .values(members.map((userId) => ({ todoId: id, userId })))
          .run();
      const kept = new Set(before.map((row) => row.userId));
      await noticeAssignment(
        ctx,
        caller,
        todo,
        members.filter((userId) => !kept.has(userId)),
      );
      return { ok: true as const, assignees: (await assigneesByTodo(ctx, caller.teamId, [id])).get(id) ?? [], setId: todo.setId };
    });
  } catch (error) {
    if (isAssignmentTableMissing(error)) throw E.assignmentUnavailable();
    throw error;
  }
  const { setId, ...result } = answer;
  // Spec 2 section 6: todo:assigned carries the resolved assignees array.
  ctx.bus.publish({ type: "todo:assigned", teamId: caller.teamId, setId, data: { todoId: id, assignees: result.assignees } });
  return result;
}

/** Spec 2 section 4.2 assigned-to-me: open todos assigned to the caller, grouped by set in set order. */
export async function assignedToMe(ctx: Ctx, caller: MemberActor) {
  const rows = await assignedOpenTodos(ctx, caller);
  const groups: AssignedGroup[] = [];
  const visible = new Map<string, boolean>();
  for (const { todo, setName } of rows) {
    if (!visible.has(todo.setId)) visible.set(todo.setId, canViewSet(caller, await permissionsOf(ctx, caller, todo.setId)));
    if (!visible.get(todo.setId)) continue;
    let group = groups.at(-1);
    if (group?.setId !== todo.setId) groups.push((group = { setId: todo.setId, setName, todos: [] }));
    group.todos.push({
      id: todo.id,
      setId: todo.setId,
      parentId: todo.parentId ?? null,
      title: todo.title,
      completed: todo.completed,
      createdAt: new Date(todo.createdAt).toISOString(),
      updatedAt: new Date(todo.updatedAt).toISOString(),
    });
  }
  const expand: Record<string, boolean> = {};
  const teamSetIds = (await ctx.db.select({ id: todoSets.id }).from(todoSets).where(eq(todoSets.teamId, caller.teamId)).all()).map((r) => r.id);
  if (teamSetIds.length > 0)
    for (const row of await ctx.db
      .select()
      .from(assignedExpand)
      .where(and(eq(assignedExpand.userId, caller.userId), inArray(assignedExpand.setId, teamSetIds.slice(0, 10_000))))
      .all())
      expand[row.setId] = row.expanded;
  return { groups, expand };
}

/** The caller's open assigned todos in set order; every row is an assignment, so no table is the 503. */
async function assignedOpenTodos(ctx: Ctx, caller: MemberActor) {
  try {
    return await ctx.db
      .select({ todo: todos, setName: todoSets.name })
      .from(todoAssignees)
      .innerJoin(todos, eq(todos.id, todoAssignees.todoId))
      .innerJoin(todoSets, eq(todoSets.id, todos.setId))
      .where(and(eq(todoAssignees.userId, caller.userId), eq(todos.teamId, caller.teamId), eq(todos.completed, false)))
      .orderBy(asc(todoSets.sortOrder), asc(todoSets.id), asc(todos.sortOrder), asc(todos.createdAt), INSERTION_ORDER)
      .all();
  } catch (error) {
    if (isAssignmentTableMissing(error)) throw E.assignmentUnavailable();
    throw error;
  }
}

/** Best effort (a beacon): remembers a group's state when the input names a set of this team, else nothing. */
export async function rememberExpand(ctx: Ctx, caller: MemberActor, body: unknown): Promise<void> {
  try {
    const input = typeof body === "string" ? JSON.parse(body) : body;
    const { setId, expanded } = (input ?? {}) as { setId?: unknown; expanded?: unknown };
    if (typeof setId !== "string" || typeof expanded !== "boolean") return;
    const set = await ctx.db
      .select({ id: todoSets.id })
      .from(todoSets)
      .where(and(eq(todoSets.id, setId), eq(todoSets.teamId, caller.teamId)))
      .get();
    if (!set) return;
    await ctx.db
      .insert(assignedExpand)
      .values({ userId: caller.userId, setId, expanded })
      .onConflictDoUpdate({ target: [assignedExpand.userId, assignedExpand.setId], set: { expanded } })
      .run();
  } catch {
    // Spec 2 section 4.2: always {ok:true}.
  }
}
