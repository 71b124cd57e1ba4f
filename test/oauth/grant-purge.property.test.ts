import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { sql } from "drizzle-orm";
import fc from "fast-check";
import { KEEP_ENDED_MS } from "../../src/context/purges.ts";
import { GRANT_OUTLIVES_ITS_WINDOW_MS, REFRESH_TOKEN_TTL_MS } from "../../src/oauth/tokens/lifetimes.ts";
import { parseTokenKey } from "../../src/oauth/tokens/token-key.ts";
import { createGrant, type GrantRow, issueAccessToken, issueRefreshToken, revokeGrant, supersedeRefreshToken } from "../../src/oauth/tokens/tokens.service.ts";
import type { TestApp } from "../helpers/app.ts";
import { manualClock } from "../helpers/clock.ts";
import { obtainTokensRaw, startOAuthWorld } from "./oauth.fixtures.ts";

/**
 * Issue 43: the purge deletes exactly what is due, grants included, over random histories made by
 * the real issuing code on a moving clock: sign-ins with and without refresh, rotations, token
 * exchanges (RFC 8693) chained from them, revocations. A token goes at its expiry; a grant once
 * its refresh window (or, without one, its creation) is GRANT_OUTLIVES_ITS_WINDOW_MS past, or 30
 * days after its revocation; and never while a token of it, or of a grant exchanged from it,
 * could still be used. Consents are not grants and stay.
 */
const HOUR = 3_600_000;
const DAY = 86_400_000;
const clock = manualClock();
const NOW = clock.now() + 90 * DAY; // the purge's "now": every history happens before it
let app: TestApp;
let base: Omit<GrantRow, "id" | "createdAt" | "revokedAt" | "lineage" | "refreshExpiresAt">;

beforeAll(async () => {
  const world = await startOAuthWorld({ overrides: { clock } });
  app = world.app;
  // A real sign-in first: the user's consent and session, which the purge must leave alone.
  await obtainTokensRaw(app, world.user, world.rp, "openid offline_access");
  const [session] = await app.ctx.db.all<{ id: string }>(sql`SELECT id FROM sessions WHERE user_id = ${world.user.user.id}`);
  const sid = (session as { id: string }).id;
  base = {
    clientId: world.rp.client_id,
    userId: world.user.user.id,
    scopes: ["openid"],
    sid,
    authTime: 0,
    amr: ["pwd"],
    acr: "pwd",
    dpopJkt: null,
    resources: [],
  };
});
afterAll(() => app.stop());

/** Anywhere in 60 days, or within hours of where a rule changes its answer: a cutoff lies a `mark` before NOW. */
const around = (...marks: number[]) =>
  fc.oneof(
    fc.integer({ min: 0, max: 60 * DAY }),
    ...marks.map((mark) => ({ arbitrary: fc.integer({ min: Math.max(0, mark - 3 * HOUR), max: mark + 6 * HOUR }), weight: 2 })),
  );
const WINDOW_END = REFRESH_TOKEN_TTL_MS + GRANT_OUTLIVES_ITS_WINDOW_MS;
const history = fc.record({
  createdAgo: around(GRANT_OUTLIVES_ITS_WINDOW_MS, WINDOW_END),
  offline: fc.boolean(),
  // Rotations anywhere in the window, or just before it closes (the latest tokens it can have).
  refreshes: fc.array(fc.oneof(fc.integer({ min: 1, max: 31 * DAY }), fc.integer({ min: REFRESH_TOKEN_TTL_MS - 2 * HOUR, max: REFRESH_TOKEN_TTL_MS })), {
    maxLength: 3,
  }),
  revokedAgo: fc.option(around(KEEP_ENDED_MS), { nil: null }),
  /** A chain of exchanges, each this long after the last token of the grant before it was issued. */
  exchanges: fc.array(fc.oneof(fc.integer({ min: 0, max: HOUR - 1 }), fc.integer({ min: HOUR - 60_000, max: HOUR - 1 })), { maxLength: 4 }),
});
type History = typeof history extends fc.Arbitrary<infer T> ? T : never;

/** Plays one grant's history through the issuing code, each step at its own time, none after NOW. */
async function play(h: History): Promise<void> {
  const ctx = app.ctx;
  const created = NOW - h.createdAgo;
  const revokeAt = h.revokedAgo === null ? null : Math.max(created, NOW - h.revokedAgo);
  const allowed = (at: number) => at <= NOW && (revokeAt === null || at < revokeAt);
  clock.set(created);
  const grant = await createGrant(ctx, { ...base, refreshExpiresAt: h.offline ? created + REFRESH_TOKEN_TTL_MS : null });
  await issueAccessToken(ctx, grant, grant.scopes, null, []);
  let lastAccess = created;
  if (h.offline) {
    let refresh = await issueRefreshToken(ctx, grant);
    for (const after of [...h.refreshes].sort((a, b) => a - b)) {
      const at = created + after;
      if (!allowed(at) || at >= (grant.refreshExpiresAt as number)) break;
      clock.set(at);
      const key = parseTokenKey(ctx.oauth.tokenIds, refresh);
      if (!key || key.kind === "legacy" || !(await supersedeRefreshToken(ctx, key.id))) throw new Error("rotation failed");
      refresh = await issueRefreshToken(ctx, grant);
      await issueAccessToken(ctx, grant, grant.scopes, null, []);
      lastAccess = at;
    }
  }
  // Each exchange is made while the token it exchanges lives, as the token endpoint demands.
  let from = grant;
  for (const after of h.exchanges) {
    const at = lastAccess + after;
    if (!allowed(at)) break;
    clock.set(at);
    from = await createGrant(ctx, { ...base, refreshExpiresAt: null, lineage: [from.id, ...from.lineage] });
    await issueAccessToken(ctx, from, from.scopes, null, []);
    lastAccess = at;
  }
  if (revokeAt !== null) {
    clock.set(revokeAt);
    await revokeGrant(ctx, grant.id);
  }
}

type Grant = { id: string; created_at: number; refresh_expires_at: number | null; revoked_at: number | null; lineage: string };
type Token = { id: number; grant_id: string; expires_at: number; superseded_at?: number | null };

async function snapshot() {
  const { db } = app.ctx;
  return {
    grants: await db.all<Grant>(sql`SELECT id, created_at, refresh_expires_at, revoked_at, lineage FROM oauth_grants`),
    access: await db.all<Token>(sql`SELECT id, grant_id, expires_at FROM access_tokens`),
    refresh: await db.all<Token>(sql`SELECT id, grant_id, expires_at, superseded_at FROM refresh_tokens`),
    consents: (await db.all<{ n: number }>(sql`SELECT count(*) AS n FROM oauth_consents`))[0] as { n: number },
  };
}

const grantDue = (g: Grant) =>
  (g.revoked_at !== null && g.revoked_at < NOW - KEEP_ENDED_MS) || (g.refresh_expires_at ?? g.created_at) < NOW - GRANT_OUTLIVES_ITS_WINDOW_MS;

/** The grants a token could still be used through at NOW: its own and every one it was exchanged from, all live. */
function usableThrough(t: Token, grants: Map<string, Grant>): string[] | null {
  if (t.expires_at <= NOW || (t.superseded_at ?? null) !== null) return null;
  const grant = grants.get(t.grant_id);
  if (!grant) return null;
  const chain = [grant.id, ...(JSON.parse(grant.lineage) as string[])];
  return chain.every((id) => grants.get(id)?.revoked_at === null) ? chain : null;
}

const ids = (rows: { id: string | number }[]) => rows.map((r) => r.id).sort();

describe("the purge (issue 43, property)", () => {
  it("deletes exactly the expired tokens and the ended grants, never a grant a live token needs, and no consent", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(history, { minLength: 1, maxLength: 6 }), async (histories) => {
        for (const table of ["access_tokens", "refresh_tokens", "oauth_grants"]) await app.ctx.db.run(sql`DELETE FROM ${sql.identifier(table)}`);
        for (const h of histories) await play(h);
        const before = await snapshot();
        clock.set(NOW);
        expect((await app.ctx.purges.run(NOW)).failures).toEqual([]);
        const after = await snapshot();

        expect(ids(after.access)).toEqual(ids(before.access.filter((t) => t.expires_at >= NOW)));
        expect(ids(after.refresh)).toEqual(ids(before.refresh.filter((t) => t.expires_at >= NOW)));
        expect(ids(after.grants)).toEqual(ids(before.grants.filter((g) => !grantDue(g))));
        // Whatever the rule says, a token that still works keeps every grant it is used through.
        const kept = new Set(after.grants.map((g) => g.id));
        const byId = new Map(before.grants.map((g) => [g.id, g]));
        for (const t of [...before.access, ...before.refresh]) for (const id of usableThrough(t, byId) ?? []) expect(kept.has(id)).toBe(true);
        expect(after.consents).toEqual(before.consents);
        expect(after.consents.n).toBe(1);
      }),
      { numRuns: 80 },
    );
  });
});
