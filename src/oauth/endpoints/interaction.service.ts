import type { SessionPrincipal } from "../../access/principal.ts";
import type { AppContext } from "../../context/context.ts";
import { badInput, missing } from "../../identity/users/identity.errors.ts";
import { isAtLeast } from "../../identity/teams/team-roles.ts";
import { listMyTeams } from "../../identity/teams/teams.service.ts";
import { findClient } from "../clients/clients.service.ts";
import { CROSS_APP_SCOPE, grantableScopes } from "../../contract/scopes.ts";
import type { TeamGrant } from "../consents/team-grants.ts";
import type { AuthorizeRequest } from "./authorize-request.ts";
import { consumeInteraction, decideConsent, findInteraction, type InteractionRow, needsTeamPicker, type Next } from "./authorization.service.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "config" | "oauth">;

/** Spec 1 section 2.3 rule 9: the exact phrase an admin types to grant site scopes. */
const SITE_PHRASE = "grant site access";

async function ownInteraction(ctx: Ctx, id: string, principal: SessionPrincipal): Promise<InteractionRow> {
  const interaction = await findInteraction(ctx, id);
  if (!interaction || interaction.userId !== principal.user.id) throw missing("Authorization request");
  return interaction;
}

/** Teams on which the user may grant single-team scopes: admin or above (inherited counts). */
async function eligibleTeams(ctx: Ctx, userId: string, scopes: string[]) {
  const min = scopes.includes("team:delete") ? "co-owner" : "admin";
  return (await listMyTeams(ctx, userId)).filter((t) => isAtLeast(t.role, min)).map((t) => ({ id: t.id, name: t.name }));
}

/** What the consent page shows (ARCHITECTURE section 4, interaction API). */
export async function describeInteraction(ctx: Ctx, id: string, principal: SessionPrincipal) {
  const interaction = await ownInteraction(ctx, id, principal);
  const request = interaction.request as AuthorizeRequest;
  const client = await findClient(ctx, request.client_id);
  if (!client) throw missing("Application");
  const scopes = grantableScopes(request.scope.split(" "), principal.user.role);
  const picker = needsTeamPicker(scopes);
  return {
    client: { client_id: client.clientId, name: client.name, is_verified: client.isVerified },
    scopes,
    team_picker: picker,
    eligible_teams: picker ? await eligibleTeams(ctx, principal.user.id, scopes) : [],
    site_confirmation: scopes.some((s) => s.startsWith("site:")),
    // Cross-app scopes (`app:<client_id>:*`) name another app: the page says which, by name.
    apps: Object.fromEntries(
      (
        await Promise.all(
          scopes.map(async (s) => {
            const id = CROSS_APP_SCOPE.exec(s)?.[1];
            const other = id ? await findClient(ctx, id) : null;
            return id ? [[id, other?.name ?? id]] : [];
          }),
        )
      ).flat(),
    ),
  };
}

/**
 * The user's decision. Single-team scopes are bound to the chosen team (`team:<id>:<perm>`);
 * site scopes need an admin signed in with a second factor who typed the phrase. Checked
 * before the interaction is used up, so a correctable mistake can be corrected.
 */
export async function submitDecision(
  ctx: Ctx,
  id: string,
  principal: SessionPrincipal,
  body: { decision: "approve" | "deny"; team_id?: string; confirmation?: string },
): Promise<Next> {
  const interaction = await ownInteraction(ctx, id, principal);
  const info = await describeInteraction(ctx, id, principal);
  let scopes = info.scopes;
  let teamGrant: TeamGrant | undefined;
  if (body.decision === "approve") {
    if (info.team_picker) {
      const teamId = body.team_id;
      if (!teamId || !info.eligible_teams.some((t) => t.id === teamId)) throw badInput("Choose one of the teams you administer.");
      teamGrant = { teamId, permissions: scopes.filter((s) => s.startsWith("team:")).map((s) => s.slice("team:".length)) };
      scopes = scopes.map((s) => (s.startsWith("team:") ? `team:${teamId}:${s.slice("team:".length)}` : s));
    }
    if (info.site_confirmation) {
      if (principal.session.acr !== "mfa") throw badInput("Granting site access needs a sign-in with a second factor.");
      if (body.confirmation !== SITE_PHRASE) throw badInput(`Type "${SITE_PHRASE}" to grant site access.`);
    }
  }
  if (!(await consumeInteraction(ctx, interaction.id))) throw missing("Authorization request");
  return decideConsent(ctx, interaction, principal, body.decision === "approve", scopes, teamGrant);
}
