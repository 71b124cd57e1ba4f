import { and, asc, count, eq, sql } from "drizzle-orm";
import type { AppContext } from "../../context/context.ts";
import type { TeamRole } from "./team-roles.ts";
import { teamMembers, teams } from "./teams.table.ts";

type Db = Pick<AppContext, "db">;

export type TeamRow = typeof teams.$inferSelect;

// UNION (not UNION ALL) ends a walk down the tree even on a corrupted, cyclic one; the walk up
// keeps its depth for ordering, so it stops at a depth no real tree reaches.
const MAX_DEPTH = 1000;

/** `chain(id, parent_id, depth)`: the team (depth 0) and its ancestors. */
const chainOf = (teamId: string) => sql`
  WITH RECURSIVE chain(id, parent_id, depth) AS (
    SELECT id, parent_id, 0 FROM teams WHERE id = ${teamId}
    UNION ALL
    SELECT t.id, t.parent_id, c.depth + 1 FROM teams t JOIN chain c ON t.id = c.parent_id WHERE c.depth < ${MAX_DEPTH}
  )`;

export async function findTeam(ctx: Db, teamId: string): Promise<TeamRow | null> {
  return (await ctx.db.select().from(teams).where(eq(teams.id, teamId)).get()) ?? null;
}

/** The team and its ancestors, nearest first (depth 0 is the team itself). */
export function selectTeamChain(ctx: Db, teamId: string): Promise<{ id: string; parentId: string | null; depth: number }[]> {
  return ctx.db.all(sql`
    ${chainOf(teamId)}
    SELECT id, parent_id AS "parentId", depth FROM chain ORDER BY depth`);
}

/** The ids of the team and every team below it. */
export async function selectSubtreeIds(ctx: Db, teamId: string): Promise<string[]> {
  const rows = await ctx.db.all<{ id: string }>(sql`
    WITH RECURSIVE tree(id) AS (
      SELECT id FROM teams WHERE id = ${teamId}
      UNION
      SELECT t.id FROM teams t JOIN tree ON t.parent_id = tree.id
    )
    SELECT id FROM tree`);
  return rows.map((r) => r.id);
}

/** Every membership a team inherits: its own members and those of each ancestor, with names. */
export function selectChainMembers(ctx: Db, teamId: string) {
  return ctx.db.all<{ userId: string; username: string; name: string; disabled: number; role: TeamRole; teamId: string; depth: number }>(sql`
    ${chainOf(teamId)}
    SELECT m.user_id AS "userId", u.username, u.name, u.disabled_at IS NOT NULL AS disabled, m.role, m.team_id AS "teamId", c.depth
    FROM chain c JOIN team_members m ON m.team_id = c.id JOIN users u ON u.id = m.user_id
    ORDER BY u.username, c.depth`);
}

/** The user's roles along the team's chain, nearest team first. */
export function selectChainRoles(ctx: Db, userId: string, teamId: string): Promise<{ role: TeamRole; teamId: string; depth: number }[]> {
  return ctx.db.all(sql`
    ${chainOf(teamId)}
    SELECT m.role, m.team_id AS "teamId", c.depth FROM chain c JOIN team_members m ON m.team_id = c.id AND m.user_id = ${userId}
    ORDER BY c.depth`);
}

/** Every team the user is a direct member of, and every team below those. */
export function selectReachableTeams(ctx: Db, userId: string): Promise<{ id: string; name: string; parentId: string | null }[]> {
  return ctx.db.all(sql`
    WITH RECURSIVE tree(id) AS (
      SELECT team_id FROM team_members WHERE user_id = ${userId}
      UNION
      SELECT t.id FROM teams t JOIN tree ON t.parent_id = tree.id
    )
    SELECT t.id, t.name, t.parent_id AS "parentId" FROM tree JOIN teams t ON t.id = tree.id`);
}

export async function selectDirectMember(ctx: Db, teamId: string, userId: string) {
  return (
    (await ctx.db
      .select()
      .from(teamMembers)
      .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId)))
      .get()) ?? null
  );
}

export async function countDirectOwners(ctx: Db, teamId: string): Promise<number> {
  return (
    (
      await ctx.db
        .select({ n: count() })
        .from(teamMembers)
        .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.role, "owner")))
        .get()
    )?.n ?? 0
  );
}

/** The user's direct role in each team they are a member of, by team id. */
export async function selectDirectRoles(ctx: Db, userId: string): Promise<Map<string, TeamRole>> {
  const rows = await ctx.db.select({ teamId: teamMembers.teamId, role: teamMembers.role }).from(teamMembers).where(eq(teamMembers.userId, userId)).all();
  return new Map(rows.map((r) => [r.teamId, r.role]));
}

/** A page of every team on the instance whose name contains `q`, by name, and how many match. */
export async function selectTeamsPage(ctx: Db, { q, limit, offset }: { q: string; limit: number; offset: number }) {
  const pattern = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  // lower() on both sides: SQLite's LIKE ignores ASCII case, PostgreSQL's does not.
  const where = q === "" ? undefined : sql`lower(${teams.name}) LIKE lower(${pattern}) ESCAPE '\\'`;
  const rows = await ctx.db.select().from(teams).where(where).orderBy(asc(teams.name), asc(teams.id)).limit(limit).offset(offset).all();
  return { rows, total: (await ctx.db.select({ n: count() }).from(teams).where(where).get())?.n ?? 0 };
}
