import { eq, inArray } from "drizzle-orm";
import type { AppContext } from "../../context/context.ts";
import { withTx } from "../../db/tx.ts";
import { audit } from "../audit/audit.service.ts";
import { badInput, missing } from "../users/identity.errors.ts";
import { denied } from "../../access/access.errors.ts";
import { listGroups, pruneGroupMemberships } from "./groups.service.ts";
import { actorIdOf, effectiveTeamRole, requireVisibleTeam, siteMark, type TeamActor } from "./roles.service.ts";
import { normalizeTeamName } from "./team-fields.ts";
import { pickHighestRole, type TeamRole } from "./team-roles.ts";
import { canAttachSubTeam, canManageTeam } from "./teams.policy.ts";
import { findTeam, selectChainMembers, selectDirectRoles, selectReachableTeams, selectSubtreeIds, selectTeamChain, type TeamRow } from "./teams.repo.ts";
import { teamMembers, teams } from "./teams.table.ts";
import { foldMembers } from "./teams.view.ts";

type Ctx = Pick<AppContext, "db" | "clock">;
/** What a change that can move roles needs: it tells the parts that follow the teams (accountEvents). */
type ChangeCtx = Pick<AppContext, "db" | "clock" | "accountEvents">;

const teamView = (team: TeamRow) => ({ id: team.id, name: team.name, parent_id: team.parentId });

/** Every team the user has an effective role on, with that role and their direct one. */
export async function listMyTeams(ctx: Ctx, userId: string) {
  const reachable = await selectReachableTeams(ctx, userId);
  const direct = await selectDirectRoles(ctx, userId);
  const byId = new Map(reachable.map((t) => [t.id, t]));
  const effective = new Map<string, TeamRole | null>();
  // A parent outside the reachable set holds no role of the user, so the walk stops there.
  const roleOf = (id: string): TeamRole | null => {
    if (effective.has(id)) return effective.get(id) ?? null;
    const parentId = byId.get(id)?.parentId;
    const role = pickHighestRole([direct.get(id) ?? null, parentId && byId.has(parentId) ? roleOf(parentId) : null]);
    effective.set(id, role);
    return role;
  };
  const list = reachable.map((t) => ({ id: t.id, name: t.name, parent_id: t.parentId, role: roleOf(t.id), direct_role: direct.get(t.id) ?? null }));
  return list.sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
}

/**
 * Tells what follows this IdP's teams in process (the workspace's sessions and realtime streams)
 * each user's teams as they are now, inside the change's transaction: a member removed or demoted
 * loses what the role gave at once, not at the next once-a-minute check.
 */
export async function announceTeams(ctx: ChangeCtx, userIds: Iterable<string>): Promise<void> {
  for (const userId of new Set(userIds)) {
    const teams = (await listMyTeams(ctx, userId)).flatMap((t) => (t.role === null ? [] : [{ id: t.id, name: t.name, role: t.role as string }]));
    await ctx.accountEvents.emit({ type: "teams_changed", userId, teams });
  }
}

/** Whose roles a move or deletion of the team can change: the members along its chain and every member below it. */
async function usersUnder(ctx: Ctx, teamId: string): Promise<string[]> {
  const below = await ctx.db
    .select({ userId: teamMembers.userId })
    .from(teamMembers)
    .where(inArray(teamMembers.teamId, await selectSubtreeIds(ctx, teamId)))
    .all();
  return [...(await selectChainMembers(ctx, teamId)), ...below].map((m) => m.userId);
}

/** Creates a team, its creator its owner; a sub-team needs admin+ on the parent. */
export function createTeam(ctx: Ctx, actorId: string, input: { name: string; parent_id?: string | null }) {
  const name = normalizeTeamName(input.name);
  const parentId = input.parent_id ?? null;
  return withTx(ctx.db, async () => {
    if (parentId !== null && !canAttachSubTeam(await requireVisibleTeam(ctx, actorId, parentId)))
      throw denied("Creating a sub-team needs the admin role or higher on the parent team.");
    const now = ctx.clock.now();
    const team: TeamRow = { id: crypto.randomUUID(), name, parentId, createdAt: now, updatedAt: now };
    await ctx.db.insert(teams).values(team).run();
    await ctx.db.insert(teamMembers).values({ teamId: team.id, userId: actorId, role: "owner", createdAt: now }).run();
    await audit(ctx, { actorUserId: actorId, action: "team.created", teamId: team.id, targetUserId: actorId, details: { name, parent_id: parentId } });
    return teamView(team);
  });
}

/**
 * The team, its direct and inherited members, and its groups, for anyone with a role on it (and a
 * site administrator). `role` is the caller's own effective role: null for a site administrator
 * who holds none.
 */
export async function getTeamDetail(ctx: Ctx, actor: TeamActor, teamId: string) {
  const access = await requireVisibleTeam(ctx, actor, teamId);
  const role = typeof actor === "string" ? access : await effectiveTeamRole(ctx, actor.siteAdminId, teamId);
  const team = await findTeam(ctx, teamId);
  if (!team) throw missing("Team");
  return { team: { ...teamView(team), role }, members: foldMembers(await selectChainMembers(ctx, teamId)), groups: await listGroups(ctx, teamId) };
}

/** Renames and/or re-parents (owner or co-owner; admin+ on the new parent; never under itself). */
export function updateTeam(ctx: ChangeCtx, actor: TeamActor, teamId: string, input: { name?: string; parent_id?: string | null }) {
  const name = input.name === undefined ? undefined : normalizeTeamName(input.name);
  return withTx(ctx.db, async () => {
    if (!canManageTeam(await requireVisibleTeam(ctx, actor, teamId))) throw denied("Only an owner or co-owner may change the team.");
    const team = (await findTeam(ctx, teamId)) as TeamRow;
    const parentId = input.parent_id === undefined ? team.parentId : input.parent_id;
    // Moving can change who inherits what (a co-owner moving a team under one they own would
    // become its owner): only an owner of the team may move it.
    if (parentId !== team.parentId && (await requireVisibleTeam(ctx, actor, teamId)) !== "owner") throw denied("Only an owner may move the team.");
    if (parentId !== team.parentId && parentId !== null) {
      if (!canAttachSubTeam(await requireVisibleTeam(ctx, actor, parentId)))
        throw denied("Moving a team needs the admin role or higher on the new parent team.");
      if ((await selectTeamChain(ctx, parentId)).some((t) => t.id === teamId)) throw badInput("A team cannot move under itself or one of its own sub-teams.");
    }
    const next = { ...team, name: name ?? team.name, parentId, updatedAt: ctx.clock.now() };
    const before = parentId === team.parentId ? [] : await usersUnder(ctx, teamId);
    await ctx.db.update(teams).set({ name: next.name, parentId, updatedAt: next.updatedAt }).where(eq(teams.id, teamId)).run();
    const by = { actorUserId: actorIdOf(actor), teamId };
    if (next.name !== team.name) await audit(ctx, { ...by, action: "team.renamed", details: { from: team.name, to: next.name, ...siteMark(actor) } });
    if (parentId !== team.parentId) {
      await audit(ctx, { ...by, action: "team.moved", details: { from: team.parentId, to: parentId, ...siteMark(actor) } });
      // Inherited roles follow the new ancestors: whoever lost every role here leaves its groups.
      await pruneGroupMemberships(ctx, teamId);
      await announceTeams(ctx, [...before, ...(await usersUnder(ctx, teamId))]);
    }
    return teamView(next);
  });
}

/** Deletes the team; sub-teams, memberships and groups go with it (ON DELETE CASCADE). */
export async function deleteTeam(ctx: ChangeCtx, actor: TeamActor, teamId: string): Promise<void> {
  await withTx(ctx.db, async () => {
    if (!canManageTeam(await requireVisibleTeam(ctx, actor, teamId))) throw denied("Only an owner or co-owner may delete the team.");
    const team = (await findTeam(ctx, teamId)) as TeamRow;
    const members = await usersUnder(ctx, teamId);
    await ctx.db.delete(teams).where(eq(teams.id, teamId)).run();
    await announceTeams(ctx, members);
    await audit(ctx, {
      actorUserId: actorIdOf(actor),
      action: "team.deleted",
      teamId,
      details: { name: team.name, parent_id: team.parentId, ...siteMark(actor) },
    });
  });
}
