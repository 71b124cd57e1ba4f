import type { AppContext } from "../../context/context.ts";
import { OutboundRefused, type OutboundPolicy, safeFetch } from "../../shared/safe-fetch.ts";

/** A team member as the IdP's team API names them. */
export type IdpMember = { userId: string; username: string | null; name: string | null; role: string | null };
/** One of the caller's own teams, with their effective role there. */
export type IdpTeam = { id: string; name: string; role: string };

/** What the IdP's API answered: the data, a refused token (renew it and ask again), or a failure. */
export type IdpAnswer<T> = { kind: "ok"; value: T } | { kind: "unauthorized" } | { kind: "failed"; detail: string };
export type TeamAnswer = IdpAnswer<IdpMember[]>;

const MAX_MEMBERS = 10_000;
/**
 * The outbound guard for the IdP: as strict as for any URL, except for the IdP's own origin,
 * which the operator named in the app config (a homelab IdP on the LAN or on localhost).
 */
function idpOutboundPolicy(ctx: Pick<AppContext, "outbound">, idpBaseUrl: string): OutboundPolicy {
  return { allowLoopback: ctx.outbound.allowLoopback, trustedOrigin: new URL(idpBaseUrl).origin };
}

const text = (value: unknown) => (typeof value === "string" && value !== "" ? value : null);

/** The array under `key` of a JSON body, or null when the body is not that shape. */
function listIn(body: string, key: string): Record<string, unknown>[] | null {
  try {
    const rows = (JSON.parse(body) as Record<string, unknown> | null)?.[key];
    return Array.isArray(rows) && rows.length <= MAX_MEMBERS && rows.every((r) => typeof r === "object" && r !== null) ? rows : null;
  } catch {
    return null;
  }
}

const isId = (value: unknown): value is string => typeof value === "string" && value !== "" && value.length <= 128;

function parseMembers(body: string): IdpMember[] | null {
  const rows = listIn(body, "members");
  if (!rows?.every((row) => isId(row.user_id))) return null;
  // A disabled account is no longer anyone to assign work to.
  return rows
    .filter((row) => row.disabled !== true)
    .map((row) => ({ userId: row.user_id as string, username: text(row.username), name: text(row.name), role: text(row.role) }));
}

function parseTeams(body: string): IdpTeam[] | null {
  const rows = listIn(body, "teams");
  if (!rows?.every((row) => isId(row.id) && typeof row.role === "string")) return null;
  return rows.map((row) => ({ id: row.id as string, name: text(row.name) ?? "", role: row.role as string }));
}

/** GET `path` of the IdP's API with the caller's access token, parsed by `parse`. */
async function askIdp<T>(
  ctx: Pick<AppContext, "outbound">,
  idpBaseUrl: string,
  path: string,
  accessToken: string,
  parse: (body: string) => T | null,
): Promise<IdpAnswer<T>> {
  const res = await safeFetch(
    `${idpBaseUrl}${path}`,
    { headers: { authorization: `Bearer ${accessToken}`, accept: "application/json" } },
    idpOutboundPolicy(ctx, idpBaseUrl),
  ).catch((e: unknown) => {
    // What went wrong is in the detail (the message is deliberately generic); the caller logs it.
    if (e instanceof OutboundRefused) return { kind: "failed", detail: e.detail } as const;
    throw e;
  });
  if ("kind" in res) return res;
  if (res.status === 401) return { kind: "unauthorized" };
  if (res.status !== 200) return { kind: "failed", detail: `${path} answered ${res.status}` };
  const value = parse(res.body);
  return value === null ? { kind: "failed", detail: `${path} answered an unexpected body` } : { kind: "ok", value };
}

/**
 * `GET /api/oauth/me/teams/:teamId` at the IdP with the caller's access token (scope `teams:read`):
 * the team's members, inherited roles included (ARCHITECTURE section 4, "Teams").
 */
export const fetchTeamMembers = (ctx: Pick<AppContext, "outbound">, idpBaseUrl: string, teamId: string, accessToken: string): Promise<TeamAnswer> =>
  askIdp(ctx, idpBaseUrl, `/api/oauth/me/teams/${encodeURIComponent(teamId)}`, accessToken, parseMembers);

/** `GET /api/oauth/me/teams` at the IdP: the caller's own teams and effective roles, as they are now. */
export const fetchMyTeams = (ctx: Pick<AppContext, "outbound">, idpBaseUrl: string, accessToken: string): Promise<IdpAnswer<IdpTeam[]>> =>
  askIdp(ctx, idpBaseUrl, "/api/oauth/me/teams", accessToken, parseTeams);

/** The caller's address as the IdP vouches for it now (`email` scope). */
export type IdpAddress = { email: string; emailVerified: boolean };

function parseAddress(body: string): IdpAddress | null {
  try {
    const user = (JSON.parse(body) as { user?: Record<string, unknown> } | null)?.user;
    return typeof user?.email === "string" ? { email: user.email, emailVerified: user.email_verified === true } : null;
  } catch {
    return null;
  }
}

/** `GET /api/oauth/me` at the IdP: the caller's address and whether it is verified, for the workspace's mail. */
export const fetchMyAddress = (ctx: Pick<AppContext, "outbound">, idpBaseUrl: string, accessToken: string): Promise<IdpAnswer<IdpAddress>> =>
  askIdp(ctx, idpBaseUrl, "/api/oauth/me", accessToken, parseAddress);
