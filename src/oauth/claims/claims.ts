import { and, eq } from "drizzle-orm";
import type { AppContext } from "../../context/context.ts";
import { teamGroupMembers, teamGroups } from "../../identity/teams/teams.table.ts";
import { listMyTeams } from "../../identity/teams/teams.service.ts";
import type { UserRow } from "../../identity/users/users.table.ts";
import { listDomains } from "../../identity/domains/domains.service.ts";
import { listSocialAccounts, socialClaim } from "../../identity/social/social-accounts.service.ts";
import { listGpgKeys } from "../../identity/gpg-keys/gpg-keys.service.ts";
import { findClient } from "../clients/clients.service.ts";
import { oauthClients } from "../clients/clients.table.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "oauth">;

/**
 * Every claim Cairn issues by name, for discovery's `claims_supported`: the ID token's own (spec
 * 1 section 2.5) and those scopes release (below). The flat per-team claims (`in_team_<id>`,
 * `role_in_team_<id>`, `groups_in_team_<id>`) are named per team and cannot be listed.
 */
export const CLAIMS_SUPPORTED = [
  ...["iss", "sub", "aud", "iat", "exp", "auth_time", "nonce", "acr", "amr", "sid", "role"],
  ...["name", "preferred_username", "picture", "email", "email_verified"],
  ...["teams", "apps", "domains", "gpg_keys", "social_accounts"],
] as const;

const BOUND_TEAM = /^team:([^:]+):/;

/** The slugs of the user's groups in a team, or null when the team has no groups at all. */
async function groupsIn(ctx: Ctx, teamId: string, userId: string): Promise<string[] | null> {
  const any = await ctx.db.select({ slug: teamGroups.slug }).from(teamGroups).where(eq(teamGroups.teamId, teamId)).get();
  if (!any) return null;
  const groups = await ctx.db
    .select({ slug: teamGroupMembers.slug })
    .from(teamGroupMembers)
    .where(and(eq(teamGroupMembers.teamId, teamId), eq(teamGroupMembers.userId, userId)))
    .all();
  return groups.map((g) => g.slug);
}

/**
 * The claims `scopes` release about a user (spec 1 section 2.5): profile and email always with
 * their scopes; list claims when the client enabled the oidc_field; flat per-team claims for
 * `teams:read` (every team) or a bound `team:<id>:*` scope (that team).
 */
export async function scopeClaims(ctx: Ctx, user: UserRow, scopes: string[], oidcFields: string[]): Promise<Record<string, unknown>> {
  const claims: Record<string, unknown> = {};
  if (scopes.includes("profile")) Object.assign(claims, { name: user.name, preferred_username: user.username, picture: user.pictureUrl || undefined });
  if (scopes.includes("email")) Object.assign(claims, { email: user.email, email_verified: user.emailVerified });

  const allTeams = scopes.includes("teams:read");
  const boundTeams = new Set(scopes.map((s) => BOUND_TEAM.exec(s)?.[1]).filter((id): id is string => id !== undefined));
  if (allTeams || boundTeams.size > 0) {
    const mine = (await listMyTeams(ctx, user.id)).filter((t) => t.role !== null && (allTeams || boundTeams.has(t.id)));
    const withGroups = await Promise.all(mine.map(async (t) => ({ ...t, groups: await groupsIn(ctx, t.id, user.id) })));
    for (const t of withGroups) {
      claims[`in_team_${t.id}`] = true;
      claims[`role_in_team_${t.id}`] = t.role;
      // Omitted, never an empty array, when the team has no groups or the user holds none.
      if (t.groups && t.groups.length > 0) claims[`groups_in_team_${t.id}`] = t.groups;
    }
    if (allTeams && oidcFields.includes("teams")) claims.teams = withGroups.map((t) => ({ id: t.id, name: t.name, role: t.role, groups: t.groups ?? [] }));
  }
  if (scopes.includes("apps:read") && oidcFields.includes("apps"))
    claims.apps = (
      await ctx.db
        .select({ clientId: oauthClients.clientId, name: oauthClients.name, isVerified: oauthClients.isVerified })
        .from(oauthClients)
        .where(eq(oauthClients.ownerUserId, user.id))
        .all()
    ).map((a) => ({ id: a.clientId, name: a.name, client_id: a.clientId, is_verified: a.isVerified }));
  const wants = (scope: string, field: string) => scopes.includes(scope) && oidcFields.includes(field);
  // Spec 1 section 2.5: every domain with its state; a client trusts only those `verified` is true of.
  if (wants("domains:read", "domains"))
    claims.domains = (await listDomains(ctx, user.id)).map((d) => ({ id: d.id, domain: d.domain, verified: d.verifiedAt !== null }));
  if (wants("gpg:read", "gpg_keys"))
    claims.gpg_keys = (await listGpgKeys(ctx, user.id)).map((k) => ({ id: k.id, fingerprint: k.fingerprint, key_id: k.keyId, name: k.userIds[0]?.name ?? "" }));
  if (wants("social:read", "social_accounts")) claims.social_accounts = (await listSocialAccounts(ctx, user.id)).map(socialClaim);
  return claims;
}

/**
 * The UserInfo answer (OIDC Core section 5.3): `sub` and the claims the token's scopes release in
 * an ID token for its client, list claims included where that client enabled their oidc_field.
 */
export async function userInfoClaims(ctx: Ctx, user: UserRow, scopes: string[], clientId: string): Promise<Record<string, unknown>> {
  return { sub: user.id, ...(await scopeClaims(ctx, user, scopes, (await findClient(ctx, clientId))?.oidcFields ?? [])) };
}
