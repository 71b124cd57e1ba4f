import type { AppContext } from "../../context/context.ts";
import { audit } from "../../identity/audit/audit.service.ts";
import { findClient } from "../clients/clients.service.ts";

/** The audit action of a single-team grant; the team page words it ("alice let “Grafana” see this team"). */
export const TEAM_GRANT_ACTION = "team.access_granted";

/** What a user granted an app on one team at consent: the team and the permissions (`read`, `member:read`, ...). */
export type TeamGrant = { teamId: string; permissions: string[] };

/**
 * Spec 1 section 2.3 rule 6: each single-team grant is audited apart from the consent record, on
 * the team's own log (its owners and admins read it), naming the app and the granting user. The
 * app's name is kept as it was then, so the entry still reads right once the app is renamed or gone.
 */
export async function auditTeamGrant(ctx: Pick<AppContext, "db" | "clock" | "oauth">, userId: string, clientId: string, grant: TeamGrant): Promise<void> {
  await audit(ctx, {
    actorUserId: userId,
    action: TEAM_GRANT_ACTION,
    teamId: grant.teamId,
    details: { client_id: clientId, client_name: (await findClient(ctx, clientId))?.name ?? clientId, permissions: grant.permissions },
  });
}
