import { and, desc, eq, gt, isNull, ne, type SQL, sql } from "drizzle-orm";
import { decodeProtectedHeader, jwtVerify, SignJWT } from "jose";
import type { AppContext } from "../../context/context.ts";
import { users, type UserRow } from "../users/users.table.ts";
import { signingKey, verificationKey } from "../../keys/keystore.ts";
import { randomToken } from "../../shared/crypto.ts";
import type { Db } from "../../db/client.ts";
import { type SessionRow, sessions } from "./sessions.table.ts";
import { onFirstUse } from "../../shared/on-first-use.ts";
import { withTx } from "../../db/tx.ts";
import { noteSignInDevice } from "../devices/devices.service.ts";
import type { AccountMailCtx } from "../notices/account-mail.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "config" | "secrets" | "keys" | "identity">;

export const SESSION_TTL_MS = 14 * 24 * 3600_000;

/** Adding a way into the account without knowing a password (a first password, a linked provider) needs a sign-in this recent. */
const RECENT_SIGN_IN_S = 10 * 60;

/** Whether the session signed in within the last ten minutes, so an old stolen session cannot add a way in. */
export const signedInRecently = (ctx: Pick<AppContext, "clock">, session: { authTime: number }) =>
  ctx.clock.now() / 1000 - session.authTime <= RECENT_SIGN_IN_S;
/** The JWT's own `exp` is only an outer bound: the sliding 14 days live in the sessions row. */
const SESSION_MAX_LIFETIME_S = 365 * 24 * 3600;
/** Sliding expiry is written at most this often, so reads stay reads. */
const TOUCH_EVERY_MS = 60_000;
const ALG = "EdDSA";

/** `device`: the browser's device mark (devices/device-cookie.ts), when the sign-in came from a browser. */
export type SignIn = { amr: string[]; acr: "pwd" | "mfa"; ip: string; userAgent: string; device?: string };
/** `slid`: the expiry moved forward just now (a cookie should be re-sent with a fresh Max-Age). */
export type ActiveSession = { user: UserRow; session: SessionRow; slid: boolean };

/** The session JWT (ARCHITECTURE section 3): `sid`, `sub`, `iat`, `exp`, signed EdDSA. */
async function signSessionJwt(ctx: Ctx, session: Pick<SessionRow, "id" | "userId">): Promise<string> {
  const key = await signingKey(ctx, "session", ALG);
  const now = Math.floor(ctx.clock.now() / 1000);
  return new SignJWT({ sid: session.id })
    .setProtectedHeader({ alg: ALG, kid: key.kid, typ: "JWT" })
    .setIssuer(ctx.config.issuer)
    .setAudience(`${ctx.config.issuer}/session`)
    .setSubject(session.userId)
    .setIssuedAt(now)
    .setExpirationTime(now + SESSION_MAX_LIFETIME_S)
    .sign(key.privateKey as NonNullable<typeof key.privateKey>); // Ed25519 is in every runtime's WebCrypto
}

export async function createSession(ctx: Ctx & AccountMailCtx, userId: string, signIn: SignIn): Promise<{ session: SessionRow; token: string }> {
  const now = ctx.clock.now();
  const session: SessionRow = {
    id: randomToken(18),
    userId,
    createdAt: now,
    lastSeenAt: now,
    expiresAt: now + SESSION_TTL_MS,
    authTime: Math.floor(now / 1000),
    amr: signIn.amr,
    acr: signIn.acr,
    ip: signIn.ip.slice(0, 64),
    userAgent: signIn.userAgent.slice(0, 512),
    revokedAt: null,
  };
  const { device } = signIn;
  await withTx(ctx.db, async () => {
    await ctx.db.insert(sessions).values(session).run();
    // A browser this account never signed in from is told to its address (issue 44 item 5).
    if (device !== undefined) await noteSignInDevice(ctx, userId, { ...signIn, device });
  });
  return { session, token: await signSessionJwt(ctx, session) };
}

const VERIFIED_MAX = 10_000;

/**
 * Verified JWTs and their claims (ctx.identity.verifiedSessions). A signature check costs far
 * more than the row lookup, so each token is verified once; revocation still applies at once,
 * since the row is read every time.
 */
function rememberVerified(ctx: Pick<Ctx, "identity">, token: string, claims: { sid: string; exp: number }): void {
  const byToken = ctx.identity.verifiedSessions;
  if (byToken.size >= VERIFIED_MAX) byToken.delete(byToken.keys().next().value as string);
  byToken.set(token, claims);
}

/**
 * The live session a JWT names, or null: signature, issuer and expiry checked, then the row
 * (not revoked, not expired, user not disabled), so revocation is immediate.
 */
export async function validateSessionJwt(ctx: Ctx, token: string): Promise<ActiveSession | null> {
  const known = ctx.identity.verifiedSessions.get(token);
  const sid = known && known.exp * 1000 > ctx.clock.now() ? known.sid : await verifySessionJwt(ctx, token);
  return sid === null ? null : activeSession(ctx, sid);
}

async function verifySessionJwt(ctx: Ctx, token: string): Promise<string | null> {
  let kid: unknown;
  try {
    kid = decodeProtectedHeader(token).kid;
  } catch {
    return null;
  }
  // Outside the catch: a database that does not answer says nothing about the token, and must not
  // sign anyone out (issue 46: a 503, not a 401 clearing the cookie).
  const key = typeof kid === "string" && kid ? await verificationKey(ctx, kid) : null;
  if (!key) return null;
  try {
    const { payload } = await jwtVerify(token, key, {
      issuer: ctx.config.issuer,
      audience: `${ctx.config.issuer}/session`,
      algorithms: [ALG],
      currentDate: new Date(ctx.clock.now()),
    });
    if (typeof payload.sid !== "string" || typeof payload.exp !== "number") return null;
    rememberVerified(ctx, token, { sid: payload.sid, exp: payload.exp });
    return payload.sid;
  } catch {
    return null;
  }
}

/** The session lookup every signed-in request makes, prepared once per app. */
export function createSessionsRepo(db: Db) {
  const live = onFirstUse(() =>
    db
      .select()
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(and(eq(sessions.id, sql.placeholder("sid")), isNull(sessions.revokedAt), gt(sessions.expiresAt, sql.placeholder("now")), isNull(users.disabledAt)))
      .prepare(),
  );
  return { findLive: (sid: string, now: number) => live().get({ sid, now }) };
}

export type SessionsRepo = ReturnType<typeof createSessionsRepo>;

async function activeSession(ctx: Ctx, sid: string): Promise<ActiveSession | null> {
  const now = ctx.clock.now();
  const found = await ctx.identity.sessions.findLive(sid, now);
  if (!found) return null;
  const slid = now - found.sessions.lastSeenAt >= TOUCH_EVERY_MS;
  if (slid) {
    const moved = { lastSeenAt: now, expiresAt: now + SESSION_TTL_MS };
    await ctx.db.update(sessions).set(moved).where(eq(sessions.id, sid)).run();
    Object.assign(found.sessions, moved);
  }
  return { user: found.users, session: found.sessions, slid };
}

export function listSessions(ctx: Pick<Ctx, "db" | "clock">, userId: string): Promise<SessionRow[]> {
  return ctx.db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, ctx.clock.now())))
    .orderBy(desc(sessions.lastSeenAt))
    .all();
}

type EndCtx = Pick<AppContext, "db" | "clock" | "accountEvents">;

/** Ends the user's live sessions `which` selects; those who follow sign-outs hear of them. */
async function endSessions(ctx: EndCtx, userId: string, which: SQL | undefined): Promise<string[]> {
  const sids = (
    await ctx.db
      .update(sessions)
      .set({ revokedAt: ctx.clock.now() })
      .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), which))
      .returning({ id: sessions.id })
      .all()
  ).map((row) => row.id);
  if (sids.length > 0) await ctx.accountEvents.emit({ type: "sessions_ended", userId, sids });
  return sids;
}

/** Revokes one of the user's sessions; false when there is no such live session of theirs. */
export async function revokeSession(ctx: EndCtx, userId: string, sid: string): Promise<boolean> {
  return (await endSessions(ctx, userId, eq(sessions.id, sid))).length === 1;
}

/** Revokes every session of the user but `keepSid` (all of them when null); returns how many. */
export async function revokeOtherSessions(ctx: EndCtx, userId: string, keepSid: string | null): Promise<number> {
  return (await endSessions(ctx, userId, keepSid === null ? undefined : ne(sessions.id, keepSid))).length;
}
