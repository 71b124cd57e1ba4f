import { and, asc, eq, gt, isNull } from "drizzle-orm";
import type { AppContext } from "../../context/context.ts";
import { teamGroupMembers } from "../../identity/teams/teams.table.ts";
import { listMyTeams } from "../../identity/teams/teams.service.ts";
import { PAT_PREFIX } from "../../identity/pats/pats.lookup.ts";
import { personalAccessTokens } from "../../identity/pats/pats.table.ts";
import { sessions } from "../../identity/sessions/sessions.table.ts";
import { users } from "../../identity/users/users.table.ts";
import { sha256Hex } from "../../shared/crypto.ts";
import { authzSessions } from "../sessions/authz-sessions.table.ts";
import type { CookieSession, PatUse } from "./check.context.ts";
import type { Caller } from "./decide.ts";
import { groupsValue, headerValue, type Identity } from "./identity-headers.ts";
import { type Kept, whenKept } from "../../db/table-version.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "identity" | "forwardAuthCheck">;

/** A token's last use is written at most this often (as for every other use of a token). */
const TOUCH_EVERY_MS = 60_000;

/** Who the person is for the rules and the headers: null for an unknown or disabled account. */
export function identityOf(ctx: Ctx, userId: string): Promise<Identity | null> {
  return ctx.forwardAuthCheck.identities(userId, async () => {
    const user = await ctx.identity.users.findActive(userId);
    if (user === null) return null;
    // Direct members and members of a parent team alike (teams.service.ts: roles hold in sub-teams).
    const teams = (await listMyTeams(ctx, userId)).filter((t) => t.role !== null);
    const teamIds = new Set(teams.map((t) => t.id));
    const slugs = (
      await ctx.db
        .select({ teamId: teamGroupMembers.teamId, slug: teamGroupMembers.slug })
        .from(teamGroupMembers)
        .where(eq(teamGroupMembers.userId, userId))
        .orderBy(asc(teamGroupMembers.slug))
        .all()
    ).filter((g) => teamIds.has(g.teamId));
    const admin = user.role === "admin";
    return {
      userId,
      admin,
      teamIds,
      groups: new Set(slugs.map((g) => `${g.teamId}/${g.slug}`)),
      values: {
        user: headerValue(user.username),
        email: headerValue(user.email),
        name: headerValue(user.name),
        groups: groupsValue(
          teams.map((t) => ({ name: t.name, groupSlugs: slugs.filter((g) => g.teamId === t.id).map((g) => g.slug) })),
          admin,
        ),
      },
    };
  });
}

/** The live Cairn session behind a forward auth cookie (not ended, not past the cookie's own end, its user enabled) and its person. */
async function readCookieSession(ctx: Ctx, token: string): Promise<CookieSession | null> {
  const now = ctx.clock.now();
  const row = await ctx.db
    .select({ sessionId: sessions.id, userId: sessions.userId, expiresAt: authzSessions.expiresAt, acr: sessions.acr })
    .from(authzSessions)
    .innerJoin(sessions, eq(sessions.id, authzSessions.sessionId))
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(authzSessions.tokenHash, sha256Hex(token)),
        gt(authzSessions.expiresAt, now),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, now),
        isNull(users.disabledAt),
      ),
    )
    .get();
  const identity = row && (await identityOf(ctx, row.userId));
  return identity ? { sessionId: row.sessionId, expiresAt: row.expiresAt, mfa: row.acr === "mfa", identity } : null;
}

/**
 * Only a value of the shape Cairn makes is looked up and kept (randomToken(32): 43 base64url
 * characters), so whatever else a client sends costs nothing and takes no memory.
 */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** The session a forward auth cookie names, from memory (no promise when kept); null for an unknown, ended or expired one. */
export function cookieSession(ctx: Ctx, token: string): Kept<CookieSession | null> {
  if (!TOKEN.test(token)) return null;
  // A session's end only moves later (it slides), and the cookie's own end never does: kept, an expired one stays expired.
  return whenKept(
    ctx.forwardAuthCheck.cookies(token, () => readCookieSession(ctx, token)),
    (found) => (found !== null && found.expiresAt > ctx.clock.now() ? found : null),
  );
}

/** The person behind a cookie, or null (signed out). */
export const cookieCaller = (ctx: Ctx, token: string): Kept<Caller> =>
  whenKept(cookieSession(ctx, token), (session) => session && { kind: "session", identity: session.identity, mfa: session.mfa });

async function readPat(ctx: Ctx, token: string): Promise<PatUse | null> {
  const now = ctx.clock.now();
  const found = await ctx.identity.pats.findLive(sha256Hex(token), now);
  if (!found) return null;
  const { id, userId, expiresAt, lastUsedAt } = found.personal_access_tokens;
  const identity = await identityOf(ctx, userId);
  // Its last use as last written: patCaller writes it again at most once a minute.
  return identity && { tokenId: id, expiresAt, touchedAt: lastUsedAt ?? Number.NEGATIVE_INFINITY, identity };
}

/** The person behind a personal access token, or "invalid" (unknown, revoked, expired, user disabled). A PAT is the person: no scope is asked. */
export function patCaller(ctx: Ctx, token: string): Kept<Caller | "invalid"> {
  if (!TOKEN.test(token.slice(PAT_PREFIX.length))) return "invalid";
  const now = ctx.clock.now();
  return whenKept(
    ctx.forwardAuthCheck.pats(token, () => readPat(ctx, token)),
    (pat) => {
      if (pat === null || (pat.expiresAt !== null && pat.expiresAt <= now)) return "invalid";
      const caller: Caller = { kind: "pat", identity: pat.identity };
      if (now - pat.touchedAt < TOUCH_EVERY_MS) return caller;
      pat.touchedAt = now;
      return ctx.db
        .update(personalAccessTokens)
        .set({ lastUsedAt: now })
        .where(eq(personalAccessTokens.id, pat.tokenId))
        .run()
        .then(() => caller);
    },
  );
}
