import { and, desc, eq, gt, sql } from "drizzle-orm";
import type { AppContext } from "../../context/context.ts";
import type { Db } from "../../db/client.ts";
import { insertWithId } from "../../db/insert-with-id.ts";
import { preparedOnFirstUse } from "../../db/prepared.ts";
import { ACCESS_TOKEN_TTL_S } from "./lifetimes.ts";
import { machineTokens } from "./machine-tokens.table.ts";
import { newToken, parseTokenKey, type TokenKey } from "./token-key.ts";
import { tokenRows } from "./token-rows.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "oauth">;
export type MachineToken = typeof machineTokens.$inferSelect;

/** The statements of the client credentials grant, introspection and revocation, prepared once per app (ctx.oauth.tokens.machine). */
export function createMachineTokenStatements(db: Db) {
  const p = sql.placeholder;
  return preparedOnFirstUse({
    insert: () =>
      insertWithId(
        db,
        db.insert(machineTokens).values({
          tokenHash: p("tokenHash"),
          clientId: p("clientId"),
          scopes: p("scopes"),
          audience: p("audience"),
          jkt: p("jkt"),
          createdAt: p("createdAt"),
          expiresAt: p("expiresAt"),
        }),
        machineTokens.id,
      ),
    row: () => tokenRows(db, machineTokens, "machine"),
    delete: () =>
      db
        .delete(machineTokens)
        .where(eq(machineTokens.id, p("id")))
        .prepare(),
  });
}

/** A client credentials access token (its secret stored as a hash), valid ACCESS_TOKEN_TTL_S. */
export async function issueMachineToken(
  ctx: Ctx,
  clientId: string,
  scopes: string[],
  audience: string[],
  jkt: string | null,
): Promise<{ token: string; expiresIn: number }> {
  const now = ctx.clock.now();
  const token = await newToken(ctx.oauth.tokenIds, "machine", (tokenHash) =>
    ctx.oauth.tokens.machine.insert({ tokenHash, clientId, scopes, audience, jkt, createdAt: now, expiresAt: now + ACCESS_TOKEN_TTL_S * 1000 }),
  );
  return { token, expiresIn: ACCESS_TOKEN_TTL_S };
}

/** The live machine token a value names, or null. */
export async function findMachineToken(ctx: Ctx, token: string): Promise<MachineToken | null> {
  const key = parseTokenKey(ctx.oauth.tokenIds, token);
  const row = key && (await ctx.oauth.tokens.machine.row(key));
  return row && row.expiresAt > ctx.clock.now() ? row : null;
}

/** RFC 7009 for a machine token: only its own client may revoke it. True when it was one. */
export async function revokeMachineToken(ctx: Ctx, key: TokenKey, clientId: string): Promise<boolean> {
  const row = await ctx.oauth.tokens.machine.row(key);
  if (!row || row.clientId !== clientId) return false;
  await ctx.oauth.tokens.machine.delete.run({ id: row.id });
  return true;
}

/** The live machine tokens of a client, as its owner sees them on the app's page (never the token). */
export async function listMachineTokens(ctx: Pick<AppContext, "db" | "clock">, clientId: string) {
  const rows = await ctx.db
    .select()
    .from(machineTokens)
    .where(and(eq(machineTokens.clientId, clientId), gt(machineTokens.expiresAt, ctx.clock.now())))
    .orderBy(desc(machineTokens.createdAt))
    .limit(100)
    .all();
  return rows.map((t) => ({ scope: t.scopes.join(" "), audience: t.audience, dpop_bound: t.jkt !== null, created_at: t.createdAt, expires_at: t.expiresAt }));
}
