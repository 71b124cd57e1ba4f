import { and, eq } from "drizzle-orm";
import type { AppContext } from "../../context/context.ts";
import { changedRows } from "../../db/changes.ts";
import { oauthClients } from "../clients/clients.table.ts";
import { oauthGrants } from "../tokens/tokens.table.ts";
import { consents } from "./consents.table.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "oauth">;

/** True when the user already consented to every one of `scopes` for this client. */
export async function hasConsent(ctx: Pick<Ctx, "db">, userId: string, clientId: string, scopes: string[]): Promise<boolean> {
  const row = await ctx.db
    .select({ scopes: consents.scopes })
    .from(consents)
    .where(and(eq(consents.userId, userId), eq(consents.clientId, clientId)))
    .get();
  return row !== undefined && scopes.every((s) => row.scopes.includes(s));
}

/** Remembers consent, widening any earlier one to the union of scopes. */
export async function rememberConsent(ctx: Ctx, userId: string, clientId: string, scopes: string[]): Promise<void> {
  const now = ctx.clock.now();
  const earlier = await ctx.db
    .select({ scopes: consents.scopes })
    .from(consents)
    .where(and(eq(consents.userId, userId), eq(consents.clientId, clientId)))
    .get();
  const union = [...new Set([...(earlier?.scopes ?? []), ...scopes])];
  await ctx.db
    .insert(consents)
    .values({ userId, clientId, scopes: union, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({ target: [consents.userId, consents.clientId], set: { scopes: union, updatedAt: now } })
    .run();
}

/** The apps a user authorized, for "authorized apps". */
export async function listConsents(ctx: Pick<Ctx, "db">, userId: string) {
  const rows = await ctx.db
    .select({
      clientId: consents.clientId,
      scopes: consents.scopes,
      createdAt: consents.createdAt,
      updatedAt: consents.updatedAt,
      name: oauthClients.name,
      isVerified: oauthClients.isVerified,
    })
    .from(consents)
    .innerJoin(oauthClients, eq(oauthClients.clientId, consents.clientId))
    .where(eq(consents.userId, userId))
    .all();
  return rows.map((c) => ({
    client_id: c.clientId,
    name: c.name,
    is_verified: c.isVerified,
    scopes: c.scopes,
    created_at: c.createdAt,
    updated_at: c.updatedAt,
  }));
}

/** Withdraws consent: the app's tokens for this user stop at once. */
export async function revokeConsent(ctx: Ctx, userId: string, clientId: string): Promise<boolean> {
  const removed = changedRows(
    await ctx.db
      .delete(consents)
      .where(and(eq(consents.userId, userId), eq(consents.clientId, clientId)))
      .run(),
  );
  await ctx.db
    .update(oauthGrants)
    .set({ revokedAt: ctx.clock.now() })
    .where(and(eq(oauthGrants.userId, userId), eq(oauthGrants.clientId, clientId)))
    .run();
  return removed > 0;
}
