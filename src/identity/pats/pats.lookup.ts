import { and, eq, gt, isNull, or, sql } from "drizzle-orm";
import type { AppContext } from "../../context/context.ts";
import type { Db } from "../../db/client.ts";
import { sha256Hex } from "../../shared/crypto.ts";
import { users, type UserRow } from "../users/users.table.ts";
import { personalAccessTokens } from "./pats.table.ts";
import { onFirstUse } from "../../shared/on-first-use.ts";

export const PAT_PREFIX = "cairn_pat_";
const TOUCH_EVERY_MS = 60_000;

/** The token lookup every PAT-authenticated request makes, prepared once per app. */
export function createPatsRepo(db: Db) {
  const live = onFirstUse(() =>
    db
      .select()
      .from(personalAccessTokens)
      .innerJoin(users, eq(users.id, personalAccessTokens.userId))
      .where(
        and(
          eq(personalAccessTokens.tokenHash, sql.placeholder("hash")),
          isNull(personalAccessTokens.revokedAt),
          or(isNull(personalAccessTokens.expiresAt), gt(personalAccessTokens.expiresAt, sql.placeholder("now"))),
          isNull(users.disabledAt),
        ),
      )
      .prepare(),
  );
  return { findLive: (hash: string, now: number) => live().get({ hash, now }) };
}

export type PatsRepo = ReturnType<typeof createPatsRepo>;

export type ActivePat = { user: UserRow; tokenId: string; scopes: string[] };

/** The live token a `cairn_pat_...` value names (not revoked, not expired, user enabled), or null. */
export async function findActivePat(ctx: Pick<AppContext, "db" | "clock" | "identity">, token: string): Promise<ActivePat | null> {
  if (!token.startsWith(PAT_PREFIX)) return null;
  const now = ctx.clock.now();
  // The hash is the lookup key: equal hashes mean equal tokens, so no timing leak remains.
  const found = await ctx.identity.pats.findLive(sha256Hex(token), now);
  if (!found) return null;
  const pat = found.personal_access_tokens;
  if (pat.lastUsedAt === null || now - pat.lastUsedAt >= TOUCH_EVERY_MS)
    await ctx.db.update(personalAccessTokens).set({ lastUsedAt: now }).where(eq(personalAccessTokens.id, pat.id)).run();
  return { user: found.users, tokenId: pat.id, scopes: pat.scopes };
}
