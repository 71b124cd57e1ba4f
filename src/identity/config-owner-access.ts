import type { AppContext } from "../context/context.ts";
import { ownsAnyTeam } from "./teams/roles.service.ts";
import { findTeam } from "./teams/teams.repo.ts";
import type { ConfigAccess } from "../context/config-access.ts";
import { assertOrigin } from "../access/csrf.ts";
import { resolvePrincipal } from "../access/access.context.ts";

/**
 * The app-config owner check (spec 3 section 4.1) on real accounts: the caller is a signed-in
 * session (a cookie write must come from our own pages); ownership is an effective `owner` role.
 */
export function configOwnerAccess(ctx: Pick<AppContext, "db" | "clock" | "config" | "access">): ConfigAccess {
  return {
    async caller(request) {
      const principal = await resolvePrincipal(ctx, request);
      if (principal === null || principal.kind !== "session") return null;
      if (principal.viaCookie) assertOrigin(ctx.config, request, "cookie-write");
      return { userId: principal.user.id, isSiteAdmin: principal.user.role === "admin" };
    },
    ownsAnyTeam: (caller, teamIds) => ownsAnyTeam(ctx, caller.userId, teamIds),
    teamExists: async (teamId) => (await findTeam(ctx, teamId)) !== null,
  };
}
