import { and, desc, eq, inArray, isNotNull, lte } from "drizzle-orm";
import type { AppContext } from "../../context/context.ts";
import { afterCommit, durable } from "../../db/tx.ts";
import { signJwt } from "../../keys/jwt-signer.ts";
import { randomToken } from "../../shared/crypto.ts";
import { safeFetch } from "../../shared/safe-fetch.ts";
import { oauthClients } from "../clients/clients.table.ts";
import { sessionClients } from "./session-clients.table.ts";
import { backchannelDeliveries } from "./backchannel-deliveries.table.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "config" | "secrets" | "keys" | "outbound" | "log">;

/** Waits before each retry: a receiver that is down gets five chances over about seven hours. */
export const RETRY_DELAYS_MS = [30_000, 5 * 60_000, 30 * 60_000, 6 * 3_600_000] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
const LAST_DELAY_MS = 6 * 3_600_000;
/** While one attempt is under way, no other worker takes the row. */
const LEASE_MS = 60_000;
const EVENT = "http://schemas.openid.net/event/backchannel-logout";
/** OIDC Back-Channel Logout 1.0 section 2.4: `exp` is required; a token is signed afresh for each attempt, so it need live only as long as one. */
export const LOGOUT_TOKEN_TTL_SECONDS = 120;

/**
 * Queues a logout token for every client that got tokens in the ended sessions and registered a
 * backchannel_logout_uri. Runs inside the transaction that ended them (the rows commit with it),
 * and delivery starts once it has committed.
 */
export async function queueBackchannelLogouts(ctx: Ctx, userId: string, sids: string[]): Promise<void> {
  if (sids.length === 0) return;
  // The sessions are the user's: their ids alone name whom to tell (session_clients, kept with each session).
  const targets = await ctx.db
    .select({ clientId: sessionClients.clientId, sid: sessionClients.sid })
    .from(sessionClients)
    .innerJoin(oauthClients, eq(oauthClients.clientId, sessionClients.clientId))
    .where(and(inArray(sessionClients.sid, sids), isNotNull(oauthClients.backchannelLogoutUri)))
    .all();
  if (targets.length === 0) return;
  const now = ctx.clock.now();
  await ctx.db
    .insert(backchannelDeliveries)
    .values(
      targets.map((t) => ({
        id: randomToken(15),
        clientId: t.clientId,
        sub: userId,
        sid: t.sid,
        jti: randomToken(18),
        status: "pending" as const,
        attempts: 0,
        nextAttemptAt: now,
        createdAt: now,
      })),
    )
    .run();
  afterCommit(ctx.db, () => {
    deliverDue(ctx).catch((e: Error) => ctx.log.error("back-channel logout delivery failed", { error: e.message }));
  });
}

/** Spec 1 section 2.6: an RS256 `logout+jwt` with iss, aud, sub, iat, exp, jti, sid and the back-channel event. */
function logoutToken(ctx: Ctx, row: typeof backchannelDeliveries.$inferSelect): Promise<string> {
  const iat = Math.floor(ctx.clock.now() / 1000);
  const payload = {
    iss: ctx.config.issuer,
    aud: row.clientId,
    sub: row.sub,
    iat,
    exp: iat + LOGOUT_TOKEN_TTL_SECONDS,
    jti: row.jti,
    sid: row.sid,
    events: { [EVENT]: {} },
  };
  return signJwt(ctx, "id_token", "RS256", payload, "logout+jwt");
}

/**
 * Delivers what is due, each row taken by a conditional update (a lease) so concurrent workers never
 * send one twice at once. A 2xx answer is delivered; anything else (refused by the outbound guard,
 * unreachable, an error status) is retried after RETRY_DELAYS_MS, then given up, and logged.
 */
export async function deliverDue(ctx: Ctx): Promise<number> {
  const now = ctx.clock.now();
  const due = await ctx.db
    .select()
    .from(backchannelDeliveries)
    .where(and(eq(backchannelDeliveries.status, "pending"), lte(backchannelDeliveries.nextAttemptAt, now)))
    .limit(50)
    .all();
  let delivered = 0;
  for (const row of due) {
    const leased = await ctx.db
      .update(backchannelDeliveries)
      .set({ nextAttemptAt: now + LEASE_MS })
      .where(and(eq(backchannelDeliveries.id, row.id), eq(backchannelDeliveries.status, "pending"), lte(backchannelDeliveries.nextAttemptAt, now)))
      .returning({ id: backchannelDeliveries.id })
      .all();
    // The lease may sit in a request's open batch: durable before the token leaves, or not taken.
    if (leased.length !== 1 || !(await durable(ctx.db))) continue;
    if (await attempt(ctx, row)) delivered++;
  }
  return delivered;
}

async function attempt(ctx: Ctx, row: typeof backchannelDeliveries.$inferSelect): Promise<boolean> {
  const client = await ctx.db.select({ uri: oauthClients.backchannelLogoutUri }).from(oauthClients).where(eq(oauthClients.clientId, row.clientId)).get();
  let problem: string | null = null;
  if (!client?.uri) problem = "the app no longer has a backchannel_logout_uri";
  else {
    try {
      const body = new URLSearchParams({ logout_token: await logoutToken(ctx, row) });
      const res = await safeFetch(client.uri, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body }, ctx.outbound);
      if (res.status < 200 || res.status >= 300) problem = `the receiver answered ${res.status}`;
    } catch (e) {
      problem = (e as { detail?: string }).detail ?? (e as Error).message;
    }
  }
  const now = ctx.clock.now();
  const attempts = row.attempts + 1;
  if (problem === null) {
    await ctx.db
      .update(backchannelDeliveries)
      .set({ status: "delivered", attempts, deliveredAt: now, lastError: null })
      .where(eq(backchannelDeliveries.id, row.id))
      .run();
    return true;
  }
  const giveUp = attempts >= MAX_ATTEMPTS || !client?.uri;
  ctx.log.warn("back-channel logout not delivered", { client_id: row.clientId, attempt: attempts, gave_up: giveUp, detail: problem });
  await ctx.db
    .update(backchannelDeliveries)
    .set({
      status: giveUp ? "failed" : "pending",
      attempts,
      lastError: problem,
      nextAttemptAt: giveUp ? now : now + (RETRY_DELAYS_MS[attempts - 1] ?? LAST_DELAY_MS),
    })
    .where(eq(backchannelDeliveries.id, row.id))
    .run();
  return false;
}

/** The delivery log the app's owner sees on its page: the latest 50, newest first. */
export async function deliveryLog(ctx: Pick<AppContext, "db">, clientId: string) {
  const rows = await ctx.db
    .select()
    .from(backchannelDeliveries)
    .where(eq(backchannelDeliveries.clientId, clientId))
    .orderBy(desc(backchannelDeliveries.createdAt))
    .limit(50)
    .all();
  return rows.map((d) => ({
    id: d.id,
    status: d.status,
    attempts: d.attempts,
    sid: d.sid,
    last_error: d.lastError,
    created_at: d.createdAt,
    delivered_at: d.deliveredAt,
    next_attempt_at: d.status === "pending" ? d.nextAttemptAt : null,
  }));
}
