import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import type { machineTokens } from "./machine-tokens.table.ts";
import { constantTimeEqual } from "../../shared/crypto.ts";
import type { TokenKey, TokenKind } from "./token-key.ts";
import type { accessTokens, refreshTokens } from "./tokens.table.ts";
import { onFirstUse } from "../../shared/on-first-use.ts";

type TokenTable = typeof accessTokens | typeof refreshTokens | typeof machineTokens;

/**
 * The row a presented token's key names in `table` (one of kind `kind`): by its id with the stored
 * hash compared in constant time, or a legacy token by its hash through the legacy index. Two
 * statements prepared once per app.
 */
export function tokenRows<T extends TokenTable>(db: Db, table: T, kind: TokenKind): (key: TokenKey) => Promise<T["$inferSelect"] | null> {
  const t = table as TokenTable;
  const p = sql.placeholder;
  const byId = onFirstUse(() =>
    db
      .select()
      .from(t)
      .where(eq(t.id, p("id")))
      .prepare(),
  );
  const byLegacyHash = onFirstUse(() =>
    db
      .select()
      .from(t)
      .where(and(eq(t.tokenHash, p("hash")), eq(t.legacy, true)))
      .prepare(),
  );
  return async (key) => {
    if (key.kind === "legacy") return ((await byLegacyHash().get({ hash: key.hash })) as T["$inferSelect"] | undefined) ?? null;
    // A key of another kind names no row here.
    if (key.kind !== kind) return null;
    const row = (await byId().get({ id: key.id })) as T["$inferSelect"] | undefined;
    return row && constantTimeEqual(row.tokenHash, key.hash) ? row : null;
  };
}
