import { and, asc, eq, isNotNull, lte } from "drizzle-orm";
import type { AppContext } from "../../context/context.ts";
import type { DueSoonTodo } from "../../contract/api/workspace.ts";
import { addDays, compareDue, DUE_SOON_DAYS, isDueSoon, isOverdue, type LocalNow } from "../../contract/due-dates.ts";
import { readTeamSettings } from "../../settings/team-settings/team-settings.repo.ts";
import type { MemberActor } from "../permissions/actor.ts";
import { canViewSet } from "../permissions/permissions.policy.ts";
import { permissionsOf } from "../permissions/permissions.resolve.ts";
import { effectiveTimezone, localDateTime } from "../renew/renew.schedule.ts";
import { todoSets } from "../storage/sets.table.ts";
import { INSERTION_ORDER } from "../storage/todos.repo.ts";
import { todos } from "../storage/todos.table.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "workspace">;

/** More than a screen can show; the view is for what is next, not an archive. */
const MAX_ROWS = 1000;

/**
 * Cairn's own view beside assigned-to-me: the team's open todos due within DUE_SOON_DAYS or
 * overdue, in due order, from the sets the caller may view. Each set's dates are read against
 * "now" in its own time zone (the set's, else the team's default), so a todo due today in
 * Auckland can be overdue while one in Honolulu is not yet.
 */
export async function dueSoon(ctx: Ctx, caller: MemberActor): Promise<{ todos: DueSoonTodo[] }> {
  const nowMs = ctx.clock.now();
  const teamZone = (await readTeamSettings(ctx, caller.teamId)).default_timezone;
  // A zone's date is at most a day from UTC's: read one day further, then decide per set.
  const horizon = addDays(localDateTime(nowMs, "UTC").date, DUE_SOON_DAYS + 1);
  const rows = await ctx.db
    .select({ todo: todos, setName: todoSets.name, setZone: todoSets.timezone })
    .from(todos)
    .innerJoin(todoSets, eq(todoSets.id, todos.setId))
    .where(and(eq(todos.teamId, caller.teamId), eq(todos.completed, false), isNotNull(todos.dueDate), lte(todos.dueDate, horizon)))
    .orderBy(asc(todos.dueDate), asc(todoSets.sortOrder), asc(todoSets.id), asc(todos.sortOrder), asc(todos.createdAt), INSERTION_ORDER)
    .limit(MAX_ROWS)
    .all();
  const visible = new Map<string, boolean>();
  const nowIn = new Map<string, LocalNow>();
  const found: DueSoonTodo[] = [];
  for (const { todo, setName, setZone } of rows) {
    if (!visible.has(todo.setId)) visible.set(todo.setId, canViewSet(caller, await permissionsOf(ctx, caller, todo.setId)));
    if (!visible.get(todo.setId)) continue;
    const timezone = effectiveTimezone(setZone, teamZone);
    const now = nowIn.get(timezone) ?? localDateTime(nowMs, timezone);
    nowIn.set(timezone, now);
    if (todo.dueDate === null || !isDueSoon(todo, now)) continue;
    found.push({
      id: todo.id,
      setId: todo.setId,
      setName,
      parentId: todo.parentId ?? null,
      title: todo.title,
      completed: todo.completed,
      dueDate: todo.dueDate,
      dueTime: todo.dueTime,
      overdue: isOverdue(todo, now),
      timezone,
    });
  }
  // Stable: within one due, the query's set and list order stays.
  return { todos: found.sort(compareDue) };
}
