import { eq } from "drizzle-orm";
import type { AppContext } from "../../context/context.ts";
import { missing } from "../users/identity.errors.ts";
import { users } from "../users/users.table.ts";
import { effectiveTeamRole, requireVisibleTeam } from "./roles.service.ts";

/**
 * One member's profile, for `team:<id>:member:profile:read` (spec 1 section 2.3): what the
 * `profile` scope releases about oneself (name, username, picture), here about a member of the
 * team, direct or through an ancestor team. Never the email, which has a scope of its own. Someone
 * who is not a member is the same 404 as no one, so user ids cannot be probed through a team.
 */
export async function getMemberProfile(ctx: Pick<AppContext, "db">, actorId: string, teamId: string, userId: string) {
  await requireVisibleTeam(ctx, actorId, teamId);
  if ((await effectiveTeamRole(ctx, userId, teamId)) === null) throw missing("Member");
  const user = await ctx.db
    .select({ id: users.id, username: users.username, name: users.name, picture: users.pictureUrl })
    .from(users)
    .where(eq(users.id, userId))
    .get();
  if (!user) throw missing("Member");
  // The same fields, and the same "" for no picture, as GET /api/oauth/me.
  return { user_id: user.id, username: user.username, name: user.name, picture: user.picture };
}
