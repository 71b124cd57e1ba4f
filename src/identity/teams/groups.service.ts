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
export function listGroups(ctx: Pick<AppContext, "db">, teamId: string): TeamGroup[] {
  const groups = ctx.db.select().from(teamGroups).where(eq(teamGroups.teamId, teamId)).orderBy(asc(teamGroups.slug)).all();
  const members = ctx.db.select().from(teamGroupMembers).where(eq(teamGroupMembers.teamId, teamId)).orderBy(asc(teamGroupMembers.userId)).all();
  return groups.map((g) => ({ slug: g.slug, name: g.name, members: members.filter((m) => m.slug === g.slug).map((m) => m.userId) }));
}

function requireGroup(ctx: Ctx, teamId: string, slug: string): TeamGroup {
  const group = listGroups(ctx, teamId).find((g) => g.slug === slug);
  if (!group) throw missing("Group");
  return group;
}

function assertGroupManager(ctx: Ctx, actor: TeamActor, teamId: string): void {
  if (!canManageGroups(requireVisibleTeam(ctx, actor, teamId))) throw denied("Managing groups needs the admin role or higher.");
}

export function createGroup(ctx: Ctx, actor: TeamActor, teamId: string, input: { slug: string; name: string }): TeamGroup {
  const slug = assertGroupSlug(input.slug);
  const name = normalizeTeamName(input.name);
  return withTx(ctx.db, () => {
    assertGroupManager(ctx, actor, teamId);
    if (listGroups(ctx, teamId).some((g) => g.slug === slug)) throw conflict("This team already has a group with that slug.");
    ctx.db.insert(teamGroups).values({ teamId, slug, name, createdAt: ctx.clock.now() }).run();
    audit(ctx, { actorUserId: actorIdOf(actor), action: "group.created", teamId, details: { slug, name, ...siteMark(actor) } });
    return { slug, name, members: [] };
  });
}

/** Only the name changes: the slug is the group's identity in tokens. */
export function renameGroup(ctx: Ctx, actor: TeamActor, teamId: string, slug: string, input: { name: string }): TeamGroup {
  const name = normalizeTeamName(input.name);
  return withTx(ctx.db, () => {
    assertGroupManager(ctx, actor, teamId);
    const group = requireGroup(ctx, teamId, slug);
    ctx.db
      .update(teamGroups)
      .set({ name })
      .where(and(eq(teamGroups.teamId, teamId), eq(teamGroups.slug, slug)))
      .run();
    audit(ctx, { actorUserId: actorIdOf(actor), action: "group.renamed", teamId, details: { slug, from: group.name, to: name, ...siteMark(actor) } });
    return { ...group, name };
  });
}

/** Replaces the member list; every user must hold a direct or inherited role on the team. */
export function setGroupMembers(ctx: Ctx, actor: TeamActor, teamId: string, slug: string, userIds: string[]): TeamGroup {
  const wanted = [...new Set(userIds)].sort();
  return withTx(ctx.db, () => {
    assertGroupManager(ctx, actor, teamId);
    const group = requireGroup(ctx, teamId, slug);
    const outsider = wanted.find((userId) => !canJoinGroup(effectiveTeamRole(ctx, userId, teamId)));
    if (outsider !== undefined) throw badInput(`User ${outsider} is not a member of this team.`);
    const where = and(eq(teamGroupMembers.teamId, teamId), eq(teamGroupMembers.slug, slug));
    ctx.db.delete(teamGroupMembers).where(where).run();
    if (wanted.length > 0)
      ctx.db
        .insert(teamGroupMembers)
        .values(wanted.map((userId) => ({ teamId, slug, userId })))
        .run();
    const added = wanted.filter((id) => !group.members.includes(id));
    const removed = group.members.filter((id) => !wanted.includes(id));
    if (added.length > 0 || removed.length > 0)
      audit(ctx, { actorUserId: actorIdOf(actor), action: "group.members_set", teamId, details: { slug, added, removed, ...siteMark(actor) } });
    return { ...group, members: wanted };
  });
}

export function deleteGroup(ctx: Ctx, actor: TeamActor, teamId: string, slug: string): void {
  withTx(ctx.db, () => {
    assertGroupManager(ctx, actor, teamId);
    const group = requireGroup(ctx, teamId, slug);
    ctx.db
      .delete(teamGroups)
      .where(and(eq(teamGroups.teamId, teamId), eq(teamGroups.slug, slug)))
      .run();
    audit(ctx, {
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
export function pruneGroupMemberships(ctx: Ctx, teamId: string, onlyUserId?: string): void {
  for (const id of selectSubtreeIds(ctx, teamId)) {
    const rows = ctx.db.selectDistinct({ userId: teamGroupMembers.userId }).from(teamGroupMembers).where(eq(teamGroupMembers.teamId, id)).all();
    const gone = rows.map((r) => r.userId).filter((u) => (onlyUserId === undefined || u === onlyUserId) && effectiveTeamRole(ctx, u, id) === null);
    if (gone.length > 0)
      ctx.db
        .delete(teamGroupMembers)
        .where(and(eq(teamGroupMembers.teamId, id), inArray(teamGroupMembers.userId, gone)))
        .run();
  }
}
