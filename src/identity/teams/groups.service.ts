import { and, asc, eq, inArray } from "drizzle-orm";
import type { TeamGroup } from "../../contract/api/teams.ts";
import type { AppContext } from "../../context/context.ts";
import { withTx } from "../../db/tx.ts";
import { audit } from "../audit/audit.service.ts";
import { badInput, conflict, missing } from "../users/identity.errors.ts";
import { denied } from "../../access/access.errors.ts";
import { actorIdOf, effectiveTeamRole, requireVisibleTeam, siteMark, type TeamActor } from "./roles.service.ts";
import { assertGroupSlug, normalizeTeamName } from "./team-fields.ts";
import { canJoinGroup, canManageGroups } from "./teams.policy.ts";
import { selectSubtreeIds } from "./teams.repo.ts";
import { teamGroupMembers, teamGroups } from "./teams.table.ts";

type Ctx = Pick<AppContext, "db" | "clock">;

/** A team's groups by slug, each with its members' user ids. */
export async function listGroups(ctx: Pick<AppContext, "db">, teamId: string): Promise<TeamGroup[]> {
  const groups = await ctx.db.select().from(teamGroups).where(eq(teamGroups.teamId, teamId)).orderBy(asc(teamGroups.slug)).all();
  const members = await ctx.db.select().from(teamGroupMembers).where(eq(teamGroupMembers.teamId, teamId)).orderBy(asc(teamGroupMembers.userId)).all();
  return groups.map((g) => ({ slug: g.slug, name: g.name, members: members.filter((m) => m.slug === g.slug).map((m) => m.userId) }));
}

async function requireGroup(ctx: Ctx, teamId: string, slug: string): Promise<TeamGroup> {
  const group = (await listGroups(ctx, teamId)).find((g) => g.slug === slug);
  if (!group) throw missing("Group");
  return group;
}

async function assertGroupManager(ctx: Ctx, actor: TeamActor, teamId: string): Promise<void> {
  if (!canManageGroups(await requireVisibleTeam(ctx, actor, teamId))) throw denied("Managing groups needs the admin role or higher.");
}

export function createGroup(ctx: Ctx, actor: TeamActor, teamId: string, input: { slug: string; name: string }): Promise<TeamGroup> {
  const slug = assertGroupSlug(input.slug);
  const name = normalizeTeamName(input.name);
  return withTx(ctx.db, async () => {
    await assertGroupManager(ctx, actor, teamId);
    if ((await listGroups(ctx, teamId)).some((g) => g.slug === slug)) throw conflict("This team already has a group with that slug.");
    await ctx.db.insert(teamGroups).values({ teamId, slug, name, createdAt: ctx.clock.now() }).run();
    await audit(ctx, { actorUserId: actorIdOf(actor), action: "group.created", teamId, details: { slug, name, ...siteMark(actor) } });
    return { slug, name, members: [] };
  });
}

/** Only the name changes: the slug is the group's identity in tokens. */
export function renameGroup(ctx: Ctx, actor: TeamActor, teamId: string, slug: string, input: { name: string }): Promise<TeamGroup> {
  const name = normalizeTeamName(input.name);
  return withTx(ctx.db, async () => {
    await assertGroupManager(ctx, actor, teamId);
    const group = await requireGroup(ctx, teamId, slug);
    await ctx.db
      .update(teamGroups)
      .set({ name })
      .where(and(eq(teamGroups.teamId, teamId), eq(teamGroups.slug, slug)))
      .run();
    await audit(ctx, { actorUserId: actorIdOf(actor), action: "group.renamed", teamId, details: { slug, from: group.name, to: name, ...siteMark(actor) } });
    return { ...group, name };
  });
}

/** Replaces the member list; every user must hold a direct or inherited role on the team. */
export function setGroupMembers(ctx: Ctx, actor: TeamActor, teamId: string, slug: string, userIds: string[]): Promise<TeamGroup> {
  const wanted = [...new Set(userIds)].sort();
  return withTx(ctx.db, async () => {
    await assertGroupManager(ctx, actor, teamId);
    const group = await requireGroup(ctx, teamId, slug);
    for (const userId of wanted)
      if (!canJoinGroup(await effectiveTeamRole(ctx, userId, teamId))) throw badInput(`User ${userId} is not a member of this team.`);
    const where = and(eq(teamGroupMembers.teamId, teamId), eq(teamGroupMembers.slug, slug));
    await ctx.db.delete(teamGroupMembers).where(where).run();
    if (wanted.length > 0)
      await ctx.db
        .insert(teamGroupMembers)
        .values(wanted.map((userId) => ({ teamId, slug, userId })))
        .run();
    const added = wanted.filter((id) => !group.members.includes(id));
    const removed = group.members.filter((id) => !wanted.includes(id));
    if (added.length > 0 || removed.length > 0)
      await audit(ctx, { actorUserId: actorIdOf(actor), action: "group.members_set", teamId, details: { slug, added, removed, ...siteMark(actor) } });
    return { ...group, members: wanted };
  });
}

export async function deleteGroup(ctx: Ctx, actor: TeamActor, teamId: string, slug: string): Promise<void> {
  await withTx(ctx.db, async () => {
    await assertGroupManager(ctx, actor, teamId);
    const group = await requireGroup(ctx, teamId, slug);
    await ctx.db
      .delete(teamGroups)
      .where(and(eq(teamGroups.teamId, teamId), eq(teamGroups.slug, slug)))
      .run();
    await audit(ctx, {
      actorUserId: actorIdOf(actor),
      action: "group.deleted",
      teamId,
      details: { slug, name: group.name, members: group.members, ...siteMark(actor) },
    });
  });
}

/**
 * Keeps groups to members: after someone leaves a team, or a team moves, whoever holds no role
 * any more on a team of the subtree leaves that team's groups. Runs inside the caller's transaction.
 */
export async function pruneGroupMemberships(ctx: Ctx, teamId: string, onlyUserId?: string): Promise<void> {
  for (const id of await selectSubtreeIds(ctx, teamId)) {
    const rows = await ctx.db.selectDistinct({ userId: teamGroupMembers.userId }).from(teamGroupMembers).where(eq(teamGroupMembers.teamId, id)).all();
    const gone: string[] = [];
    for (const { userId } of rows)
      if ((onlyUserId === undefined || userId === onlyUserId) && (await effectiveTeamRole(ctx, userId, id)) === null) gone.push(userId);
    if (gone.length > 0)
      await ctx.db
        .delete(teamGroupMembers)
        .where(and(eq(teamGroupMembers.teamId, id), inArray(teamGroupMembers.userId, gone)))
        .run();
  }
}
