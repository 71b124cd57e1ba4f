import { and, eq, inArray } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { WorkspaceCaller } from "../signin/workspace-auth.ts";
import type { Assignee } from "./todos.repo.ts";
import { memberCache } from "./todos.table.ts";

type Ctx = Pick<AppContext, "db" | "clock">;
const REFRESH_MS = 60 * 60 * 1000;
const orNull = (value: string) => (value === "" ? null : value);

/**
 * Until the IdP's team API is wired in, the workspace knows a team's members from their own
 * sign-ins: every workspace call records the caller's identity for that team.
 */
export function recordCaller(ctx: Ctx, caller: WorkspaceCaller): void {
  const { session } = caller;
  const now = ctx.clock.now();
  const row = { username: orNull(session.username), name: orNull(session.name), avatarUrl: orNull(session.picture), updatedAt: now };
  const known = ctx.db.select().from(memberCache).where(and(eq(memberCache.teamId, caller.teamId), eq(memberCache.userId, caller.userId))).get();
  // Reads stay reads: a durable write (fsync) only when something changed or the entry is old.
  if (known && known.username === row.username && known.name === row.name && known.avatarUrl === row.avatarUrl && now - known.updatedAt < REFRESH_MS) return;
  ctx.db
    .insert(memberCache)
    .values({ teamId: caller.teamId, userId: caller.userId, ...row })
    .onConflictDoUpdate({ target: [memberCache.teamId, memberCache.userId], set: row })
    .run();
}

/** Spec 2 section 4.2 members: personal spaces have only the caller. */
export function listMembers(ctx: Ctx, caller: WorkspaceCaller): Assignee[] {
  const conds = [eq(memberCache.teamId, caller.teamId)];
  if (caller.teamId.startsWith("personal:")) conds.push(eq(memberCache.userId, caller.userId));
  return ctx.db
    .select({ userId: memberCache.userId, name: memberCache.name, username: memberCache.username, avatarUrl: memberCache.avatarUrl })
    .from(memberCache)
    .where(and(...conds))
    .orderBy(memberCache.username, memberCache.userId)
    .all();
}

/** The ids among `userIds` that are members of the caller's team. */
export function memberIdsAmong(ctx: Ctx, caller: WorkspaceCaller, userIds: string[]): string[] {
  if (caller.teamId.startsWith("personal:")) return userIds.includes(caller.userId) ? [caller.userId] : [];
  const unique = [...new Set(userIds)].slice(0, 1000);
  if (unique.length === 0) return [];
  return ctx.db
    .select({ userId: memberCache.userId })
    .from(memberCache)
    .where(and(eq(memberCache.teamId, caller.teamId), inArray(memberCache.userId, unique)))
    .all()
    .map((r) => r.userId);
}
