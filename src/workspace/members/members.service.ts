import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import type { AppContext } from "../../context/context.ts";
import { type MembersCtx, syncTeamMembers } from "./team-members.service.ts";
import type { MemberActor } from "../permissions/actor.ts";
import type { Assignee } from "../storage/todos.repo.ts";
import { memberCache } from "../storage/todos.table.ts";
import { onFirstUse } from "../../shared/on-first-use.ts";

export type { MembersCtx } from "./team-members.service.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "workspace">;

/** The member-cache read every workspace call makes (recording the caller): prepared once per app. */
export function createMemberCacheRepo({ db }: { db: Db }) {
  const one = onFirstUse(() =>
    db
      .select()
      .from(memberCache)
      .where(and(eq(memberCache.teamId, sql.placeholder("teamId")), eq(memberCache.userId, sql.placeholder("userId"))))
      .prepare(),
  );
  return { find: (teamId: string, userId: string) => one().get({ teamId, userId }) };
}

export type MemberCacheRepo = ReturnType<typeof createMemberCacheRepo>;
const orNull = (value: string) => (value === "" ? null : value);

/**
 * Every workspace call records the caller's identity for that team: the only source for a
 * personal space, and for avatars (the IdP's team API has none). Names come from the session
 * only when it is newer than the cached row; a row the team API wrote since keeps its names.
 */
export async function recordCaller(ctx: Ctx, caller: MemberActor): Promise<void> {
  const { session } = caller;
  const known = await ctx.workspace.memberCache.find(caller.teamId, caller.userId);
  const fromSession = !known || known.updatedAt < session.createdAt;
  const username = fromSession ? orNull(session.username) : known.username;
  const name = fromSession ? orNull(session.name) : known.name;
  const avatarUrl = orNull(session.picture);
  // Reads stay reads: a durable write (fsync) only when something changed.
  if (known && known.username === username && known.name === name && known.avatarUrl === avatarUrl) return;
  const row = { username, name, avatarUrl, updatedAt: ctx.clock.now() };
  await ctx.db
    .insert(memberCache)
    .values({ teamId: caller.teamId, userId: caller.userId, ...row })
    .onConflictDoUpdate({ target: [memberCache.teamId, memberCache.userId], set: row })
    .run();
}

/** Spec 2 section 4.2 members: a team's as the IdP names them (cached); personal spaces have only the caller. */
export async function listMembers(ctx: MembersCtx, caller: MemberActor): Promise<Assignee[]> {
  await syncTeamMembers(ctx, caller);
  const conds = [eq(memberCache.teamId, caller.teamId)];
  if (caller.teamId.startsWith("personal:")) conds.push(eq(memberCache.userId, caller.userId));
  // A member the IdP gave no username first, on both stores (PostgreSQL would put NULL last).
  return ctx.db
    .select({ userId: memberCache.userId, name: memberCache.name, username: memberCache.username, avatarUrl: memberCache.avatarUrl })
    .from(memberCache)
    .where(and(...conds))
    .orderBy(sql`${memberCache.username} asc nulls first`, memberCache.userId)
    .all();
}

/** The ids among `userIds` that are members of the caller's team (spec 2 section 4.2: others are ignored). */
export async function memberIdsAmong(ctx: MembersCtx, caller: MemberActor, userIds: string[]): Promise<string[]> {
  if (caller.teamId.startsWith("personal:")) return userIds.includes(caller.userId) ? [caller.userId] : [];
  const unique = [...new Set(userIds)].slice(0, 1000);
  if (unique.length === 0) return [];
  await syncTeamMembers(ctx, caller);
  const rows = await ctx.db
    .select({ userId: memberCache.userId })
    .from(memberCache)
    .where(and(eq(memberCache.teamId, caller.teamId), inArray(memberCache.userId, unique)))
    .all();
  return rows.map((r) => r.userId);
}
