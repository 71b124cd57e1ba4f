import { and, desc, eq, gt } from "drizzle-orm";
import type { AppContext } from "../../context/context.ts";
import { randomToken, sha256Hex } from "../../shared/crypto.ts";
import { ACCESS_TOKEN_TTL_S } from "./lifetimes.ts";
import { machineTokens } from "./machine-tokens.table.ts";

type Ctx = Pick<AppContext, "db" | "clock">;
export type MachineToken = typeof machineTokens.$inferSelect;

/** A client credentials access token (stored as its hash), valid ACCESS_TOKEN_TTL_S. */
export function issueMachineToken(ctx: Ctx, clientId: string, scopes: string[], audience: string[], jkt: string | null): { token: string; expiresIn: number } {
  const token = randomToken(32);
  const now = ctx.clock.now();
  ctx.db
    .insert(machineTokens)
    .values({ tokenHash: sha256Hex(token), clientId, scopes, audience, jkt, createdAt: now, expiresAt: now + ACCESS_TOKEN_TTL_S * 1000 })
    .run();
  return { token, expiresIn: ACCESS_TOKEN_TTL_S };
}

/** The live machine token a value names, or null. */
export function findMachineToken(ctx: Ctx, token: string): MachineToken | null {
  return (
    ctx.db
      .select()
      .from(machineTokens)
      .where(and(eq(machineTokens.tokenHash, sha256Hex(token)), gt(machineTokens.expiresAt, ctx.clock.now())))
      .get() ?? null
  );
}

/** RFC 7009 for a machine token: only its own client may revoke it. True when it was one. */
export function revokeMachineToken(ctx: Ctx, token: string, clientId: string): boolean {
  const deleted = ctx.db
    .delete(machineTokens)
    .where(and(eq(machineTokens.tokenHash, sha256Hex(token)), eq(machineTokens.clientId, clientId)))
    .returning({ hash: machineTokens.tokenHash })
    .all();
  return deleted.length === 1;
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
