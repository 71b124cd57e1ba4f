import type { AppContext } from "../../context.ts";
import { OutboundRefused, type OutboundPolicy, safeFetch } from "../../shared/safe-fetch.ts";

/** A team member as the IdP's team API names them. */
export type IdpMember = { userId: string; username: string | null; name: string | null; role: string | null };

export type TeamAnswer =
  | { kind: "members"; members: IdpMember[] }
  /** The IdP refused the access token (expired or revoked): renew it and ask again. */
  | { kind: "unauthorized" }
  | { kind: "failed"; detail: string };

const MAX_MEMBERS = 10_000;
/**
 * The outbound guard for the IdP: as strict as for any URL, except for the IdP's own origin,
 * which the operator named in the app config (a homelab IdP on the LAN or on localhost).
 */
export function idpOutboundPolicy(ctx: Pick<AppContext, "outbound">, idpBaseUrl: string): OutboundPolicy {
  return { allowLoopback: ctx.outbound.allowLoopback, trustedOrigin: new URL(idpBaseUrl).origin };
}

const text = (value: unknown) => (typeof value === "string" && value !== "" ? value : null);

function parseMembers(body: string): IdpMember[] | null {
  let data: unknown;
  try {
    data = JSON.parse(body);
  } catch {
    return null;
  }
  const rows = (data as { members?: unknown } | null)?.members;
  if (!Array.isArray(rows) || rows.length > MAX_MEMBERS) return null;
  const members: IdpMember[] = [];
  for (const row of rows as Record<string, unknown>[]) {
    if (typeof row?.user_id !== "string" || row.user_id === "" || row.user_id.length > 128) return null;
    members.push({ userId: row.user_id, username: text(row.username), name: text(row.name), role: text(row.role) });
  }
  return members;
}

/**
 * `GET /api/oauth/me/teams/:teamId` at the IdP with the caller's access token (scope `teams:read`):
 * the team's members, inherited roles included (ARCHITECTURE section 4, "Teams").
 */
export async function fetchTeamMembers(ctx: Pick<AppContext, "outbound">, idpBaseUrl: string, teamId: string, accessToken: string): Promise<TeamAnswer> {
  const url = `${idpBaseUrl}/api/oauth/me/teams/${encodeURIComponent(teamId)}`;
  const res = await safeFetch(url, { headers: { authorization: `Bearer ${accessToken}`, accept: "application/json" } }, idpOutboundPolicy(ctx, idpBaseUrl)).catch((e: unknown) => {
    // What went wrong is in the detail (the message is deliberately generic); the caller logs it.
    if (e instanceof OutboundRefused) return { kind: "failed", detail: e.detail } as const;
    throw e;
  });
  if ("kind" in res) return res;
  if (res.status === 401) return { kind: "unauthorized" };
  if (res.status !== 200) return { kind: "failed", detail: `the team API answered ${res.status}` };
  const members = parseMembers(res.body);
  return members ? { kind: "members", members } : { kind: "failed", detail: "the team API answered an unexpected body" };
}
