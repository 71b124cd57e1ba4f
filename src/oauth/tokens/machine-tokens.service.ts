import { and, desc, eq, gt } from "drizzle-orm";
import type { AppContext } from "../../context/context.ts";
import { insertedRowId } from "../../db/changes.ts";
import { ACCESS_TOKEN_TTL_S } from "./lifetimes.ts";
import { machineTokens } from "./machine-tokens.table.ts";
import { newToken, parseTokenKey, rowOf, type TokenKey } from "./token-key.ts";

type Ctx = Pick<AppContext, "db" | "clock">;
export type MachineToken = typeof machineTokens.$inferSelect;

/** A client credentials access token (its secret stored as a hash), valid ACCESS_TOKEN_TTL_S. */
export function issueMachineToken(ctx: Ctx, clientId: string, scopes: string[], audience: string[], jkt: string | null): { token: string; expiresIn: number } {
  const now = ctx.clock.now();
  const token = newToken("machine", (tokenHash) =>
    insertedRowId(
      ctx.db
        .insert(machineTokens)
        .values({ tokenHash, clientId, scopes, audience, jkt, createdAt: now, expiresAt: now + ACCESS_TOKEN_TTL_S * 1000 })
        .run(),
    ),
  );
  return { token, expiresIn: ACCESS_TOKEN_TTL_S };
}

/** The live machine token a value names, or null. */
export function findMachineToken(ctx: Ctx, token: string): MachineToken | null {
  const key = parseTokenKey(token);
  const row = key && machineRow(ctx, key);
  return row && row.expiresAt > ctx.clock.now() ? row : null;
}

/** RFC 7009 for a machine token: only its own client may revoke it. True when it was one. */
export function revokeMachineToken(ctx: Ctx, key: TokenKey, clientId: string): boolean {
  const row = machineRow(ctx, key);
  if (!row || row.clientId !== clientId) return false;
  ctx.db.delete(machineTokens).where(eq(machineTokens.id, row.id)).run();
  return true;
}

function machineRow(ctx: Ctx, key: TokenKey): MachineToken | null {
  return rowOf(
    key,
    "machine",
    (id) => ctx.db.select().from(machineTokens).where(eq(machineTokens.id, id)).get(),
    (hash) =>
      ctx.db
        .select()
        .from(machineTokens)
        .where(and(eq(machineTokens.tokenHash, hash), eq(machineTokens.legacy, true)))
        .get(),
  );
}

/** The live machine tokens of a client, as its owner sees them on the app's page (never the token). */
export function listMachineTokens(ctx: Ctx, clientId: string) {
  return ctx.db
    .select()
    .from(machineTokens)
    .where(and(eq(machineTokens.clientId, clientId), gt(machineTokens.expiresAt, ctx.clock.now())))
    .orderBy(desc(machineTokens.createdAt))
    .limit(100)
    .all()
    .map((t) => ({ scope: t.scopes.join(" "), audience: t.audience, dpop_bound: t.jkt !== null, created_at: t.createdAt, expires_at: t.expiresAt }));
}
