import { and, eq } from "drizzle-orm";
import type { AppContext } from "../../context/context.ts";
import { withTx } from "../../db/tx.ts";
import { audit } from "../audit/audit.service.ts";
import { conflict, missing } from "../users/identity.errors.ts";
import { denied } from "../../access/access.errors.ts";
import { users } from "../users/users.table.ts";
import { pruneGroupMemberships } from "./groups.service.ts";
import { actorIdOf, effectiveTeamRole, requireVisibleTeam, siteMark, type TeamActor } from "./roles.service.ts";
import type { TeamRole } from "./team-roles.ts";
import { canChangeMember, canGrantRole, canManageMembers, canRemoveMember, canVacateRole } from "./teams.policy.ts";
import { countDirectOwners, selectDirectMember } from "./teams.repo.ts";
import { announceTeams } from "./teams.service.ts";
import { teamMembers } from "./teams.table.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "accountEvents">;

const LAST_OWNER = "A team keeps at least one owner: make someone else owner first.";

/** Adds a user by username with a role no higher than the caller's own. */
export function addMember(ctx: Ctx, by: TeamActor, teamId: string, input: { username: string; role: TeamRole }) {
  return withTx(ctx.db, async () => {
    const actor = await requireVisibleTeam(ctx, by, teamId);
    if (!canManageMembers(actor)) throw denied("Managing members needs the admin role or higher.");
    if (!canGrantRole(actor, input.role)) throw denied(`You cannot grant the role ${input.role}: it ranks above your own.`);
    const user = await ctx.db.select().from(users).where(eq(users.username, input.username.trim().toLowerCase())).get();
    if (!user) throw missing("User");
    // A role inherited from a parent team does not stop a direct membership; a direct one does.
    if (await selectDirectMember(ctx, teamId, user.id)) throw conflict("That user is already a member of this team.");
    await ctx.db.insert(teamMembers).values({ teamId, userId: user.id, role: input.role, createdAt: ctx.clock.now() }).run();
    await audit(ctx, { actorUserId: actorIdOf(by), action: "member.added", teamId, targetUserId: user.id, details: { role: input.role, ...siteMark(by) } });
    await announceTeams(ctx, [user.id]);
    return { user_id: user.id, username: user.username, role: input.role };
  });
}

/** The direct member a change targets, with their effective role (what the rank check compares). */
async function requireDirectMember(ctx: Ctx, teamId: string, userId: string) {
  const row = await selectDirectMember(ctx, teamId, userId);
  const user = row && (await ctx.db.select({ username: users.username }).from(users).where(eq(users.id, userId)).get());
  if (!row || !user) throw missing("Member");
  return { role: row.role, username: user.username, effective: await effectiveTeamRole(ctx, userId, teamId) };
}

export function changeMemberRole(ctx: Ctx, by: TeamActor, teamId: string, userId: string, role: TeamRole) {
  return withTx(ctx.db, async () => {
    const actor = await requireVisibleTeam(ctx, by, teamId);
    if (!canManageMembers(actor)) throw denied("Managing members needs the admin role or higher.");
    const target = await requireDirectMember(ctx, teamId, userId);
    if (!canChangeMember(actor, target.effective)) throw denied("You cannot change a member whose role ranks above your own.");
    if (!canGrantRole(actor, role)) throw denied(`You cannot grant the role ${role}: it ranks above your own.`);
    if (!canVacateRole(target.role, role, await countDirectOwners(ctx, teamId))) throw conflict(LAST_OWNER);
    if (role !== target.role) {
      await ctx.db
        .update(teamMembers)
        .set({ role })
        .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId)))
        .run();
      await audit(ctx, {
        actorUserId: actorIdOf(by),
        action: "member.role_changed",
        teamId,
        targetUserId: userId,
        details: { from: target.role, to: role, ...siteMark(by) },
      });
      await announceTeams(ctx, [userId]);
    }
    return { user_id: userId, username: target.username, role };
  });
}

/** Removes a direct membership; anyone may leave, unless they are the team's last owner. */
export async function removeMember(ctx: Ctx, by: TeamActor, teamId: string, userId: string): Promise<void> {
  await withTx(ctx.db, async () => {
    const actor = await requireVisibleTeam(ctx, by, teamId);
    const target = await requireDirectMember(ctx, teamId, userId);
    const isSelf = actorIdOf(by) === userId;
    if (!canRemoveMember(actor, target.effective, isSelf))
      throw denied(
        canManageMembers(actor) ? "You cannot remove a member whose role ranks above your own." : "Managing members needs the admin role or higher.",
      );
    if (!canVacateRole(target.role, null, await countDirectOwners(ctx, teamId))) throw conflict(LAST_OWNER);
    await ctx.db
      .delete(teamMembers)
      .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId)))
      .run();
    await pruneGroupMemberships(ctx, teamId, userId);
    await audit(ctx, {
      actorUserId: actorIdOf(by),
      action: isSelf ? "member.left" : "member.removed",
      teamId,
      targetUserId: userId,
      details: { role: target.role, ...siteMark(by) },
    });
    await announceTeams(ctx, [userId]);
  });
}
