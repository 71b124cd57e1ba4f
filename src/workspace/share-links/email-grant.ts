import { createHmac } from "node:crypto";
import type { AppContext } from "../../context/context.ts";
import { constantTimeEqual } from "../../shared/crypto.ts";
import { emailAllowed, type ShareLinkRow } from "../storage/share-links.repo.ts";

/** How long a verified code keeps a link open for its address: a day's use of a shared list, not for good. */
export const GRANT_TTL_MS = 12 * 3600_000;

const PURPOSE = "share link email grant";
const sign = (ctx: Pick<AppContext, "secrets">, payload: string) => createHmac("sha256", ctx.secrets.derive(PURPOSE)).update(payload).digest("base64url");
const normal = (email: string) => email.trim().toLowerCase();

/**
 * What a verified code gives the visitor: the link, the address and an expiry, signed with a key of
 * this instance. Kept nowhere on the server; the page sends it as `grant` beside `email` (query
 * parameter or body field, as spec 2 section 4.4 sends `email`).
 */
export function issueGrant(ctx: Pick<AppContext, "secrets">, linkId: string, email: string, now: number): { grant: string; expiresAt: number } {
  const expiresAt = now + GRANT_TTL_MS;
  const payload = Buffer.from(JSON.stringify({ l: linkId, e: normal(email), x: expiresAt })).toString("base64url");
  return { grant: `${payload}.${sign(ctx, payload)}`, expiresAt };
}

/** When `grant` ends, if it is this instance's, for this link and this address; else null. */
function grantExpiry(ctx: Pick<AppContext, "secrets">, grant: string, linkId: string, email: string): number | null {
  const [payload, sig, extra] = grant.split(".");
  if (!payload || !sig || extra !== undefined || !constantTimeEqual(sig, sign(ctx, payload))) return null;
  try {
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as { l?: unknown; e?: unknown; x?: unknown };
    return claims.l === linkId && claims.e === normal(email) && typeof claims.x === "number" ? claims.x : null;
  } catch {
    return null;
  }
}

/** Whether the link asks a listed visitor for a mailed code (an allow-list is what it checks the code against). */
export const needsEmailCode = (link: ShareLinkRow): boolean => link.requireEmailCode && link.allowedEmails !== "";

/**
 * Until when the visitor is admitted (spec 2 section 4.4's email check, and issue 44's): a listed
 * address, and for a link that requires a code, a grant from a verified code for that address,
 * until it expires. Null when not admitted now; Infinity when no code is asked.
 */
export function visitorAdmittedUntil(
  ctx: Pick<AppContext, "secrets" | "clock">,
  link: ShareLinkRow,
  email: string | undefined,
  grant: string | undefined,
): number | null {
  if (!emailAllowed(link.allowedEmails, email)) return null;
  if (!needsEmailCode(link)) return Number.POSITIVE_INFINITY;
  if (grant === undefined || email === undefined) return null;
  const until = grantExpiry(ctx, grant, link.id, email);
  return until !== null && ctx.clock.now() < until ? until : null;
}

/** Whether the visitor is admitted now (visitorAdmittedUntil). */
export const visitorAdmitted = (
  ctx: Pick<AppContext, "secrets" | "clock">,
  link: ShareLinkRow,
  email: string | undefined,
  grant: string | undefined,
): boolean => visitorAdmittedUntil(ctx, link, email, grant) !== null;
