import { and, desc, eq, isNull } from "drizzle-orm";
import type { AppContext } from "../../context/context.ts";
import { changedRows } from "../../db/changes.ts";
import { randomToken, sha256Hex } from "../../shared/crypto.ts";
import { audit } from "../audit/audit.service.ts";
import { getSiteConfig } from "../site-config/site-config.ts";
import { badInput, missing } from "../users/identity.errors.ts";
import { denied } from "../../access/access.errors.ts";
import type { UserRow } from "../users/users.table.ts";
import { ADMIN_PAT_SCOPES, PAT_SCOPES } from "../../contract/scopes.ts";
import { PAT_PREFIX } from "./pats.lookup.ts";
import { personalAccessTokens } from "./pats.table.ts";

type Ctx = Pick<AppContext, "db" | "clock">;

const MAX_DAYS = 3650;

const view = (t: typeof personalAccessTokens.$inferSelect) => ({
  id: t.id,
  name: t.name,
  prefix: t.prefix,
  scopes: t.scopes,
  created_at: t.createdAt,
  expires_at: t.expiresAt,
  last_used_at: t.lastUsedAt,
});

export async function listPats(ctx: Ctx, userId: string) {
  return (
    await ctx.db
      .select()
      .from(personalAccessTokens)
      .where(and(eq(personalAccessTokens.userId, userId), isNull(personalAccessTokens.revokedAt)))
      .orderBy(desc(personalAccessTokens.createdAt))
      .all()
  ).map(view);
}

/**
 * Creates a token; its secret value is answered this once and stored only as a hash. `acr` is the
 * creating session's: admin scopes need one with a second factor when the site asks for it
 * (`admin_requires_mfa`), as an app's token would (RFC 9470 step-up).
 */
export async function createPat(
  ctx: Ctx,
  user: UserRow,
  input: { name: string; scopes: string[]; expires_in_days?: number | null },
  { acr }: { acr: string } = { acr: "pwd" },
) {
  const name = input.name.trim();
  if (name === "" || name.length > 64) throw badInput("Name the token (1 to 64 characters).");
  const allowed = new Set<string>([...PAT_SCOPES, ...(user.role === "admin" ? ADMIN_PAT_SCOPES : [])]);
  const scopes = [...new Set(input.scopes)];
  const unknown = scopes.filter((s) => !allowed.has(s));
  if (unknown.length > 0) throw badInput(`These scopes cannot be granted to a token: ${unknown.join(", ")}.`);
  if (scopes.length === 0) throw badInput("Choose at least one scope.");
  if (acr !== "mfa" && scopes.some((s) => s.startsWith("admin:")) && (await getSiteConfig(ctx)).admin_requires_mfa)
    throw denied("A token with admin scopes needs a sign-in with a second factor: sign in again with your authenticator or a passkey.");
  const days = input.expires_in_days ?? null;
  if (days !== null && (!Number.isInteger(days) || days < 1 || days > MAX_DAYS)) throw badInput(`Expiry is 1 to ${MAX_DAYS} days, or none.`);
  const secret = `${PAT_PREFIX}${randomToken(32)}`;
  const now = ctx.clock.now();
  const row = {
    id: randomToken(12),
    userId: user.id,
    name,
    tokenHash: sha256Hex(secret),
    prefix: secret.slice(0, PAT_PREFIX.length + 4),
    scopes,
    createdAt: now,
    expiresAt: days === null ? null : now + days * 86_400_000,
    lastUsedAt: null,
    revokedAt: null,
  };
  await ctx.db.insert(personalAccessTokens).values(row).run();
  await audit(ctx, { actorUserId: user.id, action: "pat.created", targetUserId: user.id, details: { id: row.id, scopes } });
  return { token: view(row), secret };
}

export async function revokePat(ctx: Ctx, userId: string, id: string): Promise<void> {
  const result = await ctx.db
    .update(personalAccessTokens)
    .set({ revokedAt: ctx.clock.now() })
    .where(and(eq(personalAccessTokens.id, id), eq(personalAccessTokens.userId, userId), isNull(personalAccessTokens.revokedAt)))
    .run();
  if (changedRows(result) !== 1) throw missing("Token");
  await audit(ctx, { actorUserId: userId, action: "pat.revoked", targetUserId: userId, details: { id } });
}

/** Revokes every live token of the user (disabling, recovery); returns how many. */
export async function revokeAllPats(ctx: Ctx, userId: string): Promise<number> {
  return changedRows(
    await ctx.db
      .update(personalAccessTokens)
      .set({ revokedAt: ctx.clock.now() })
      .where(and(eq(personalAccessTokens.userId, userId), isNull(personalAccessTokens.revokedAt)))
      .run(),
  );
}
