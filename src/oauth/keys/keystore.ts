import { and, eq, isNull } from "drizzle-orm";
import { type CryptoKey, exportJWK, generateKeyPair, importJWK, type JWK } from "jose";
import type { AppContext } from "../../context.ts";
import { randomToken } from "../../shared/crypto.ts";
import { signingKeys } from "./keys.table.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "secrets">;

export type SigningKey = { kid: string; alg: string; privateKey: CryptoKey; publicKey: CryptoKey; publicJwk: JWK };

const cache = new WeakMap<object, Map<string, Promise<SigningKey>>>();

async function load(ctx: Ctx, use: string, alg: string): Promise<SigningKey> {
  const row = ctx.db
    .select()
    .from(signingKeys)
    .where(and(eq(signingKeys.use, use), eq(signingKeys.alg, alg), isNull(signingKeys.retiredAt)))
    .get();
  if (row) {
    const privateJwk = JSON.parse(ctx.secrets.open(row.privateJwkSealed, `signing_key:${row.kid}`)) as JWK;
    return {
      kid: row.kid,
      alg,
      privateKey: (await importJWK(privateJwk, alg)) as CryptoKey,
      publicKey: (await importJWK(row.publicJwk as JWK, alg)) as CryptoKey,
      publicJwk: row.publicJwk as JWK,
    };
  }
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  const kid = randomToken(12);
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg, use: "sig" };
  const privateJwk = await exportJWK(privateKey);
  // A concurrent start may have inserted one first: keep whichever landed.
  ctx.db
    .insert(signingKeys)
    .values({
      kid,
      alg,
      use,
      publicJwk,
      privateJwkSealed: ctx.secrets.seal(JSON.stringify(privateJwk), `signing_key:${kid}`),
      createdAt: ctx.clock.now(),
    })
    .run();
  return { kid, alg, privateKey, publicKey, publicJwk };
}

/** The current key for `use` and `alg`, created (and sealed at rest) on first need; cached. */
export function signingKey(ctx: Ctx, use: string, alg: string): Promise<SigningKey> {
  let byUse = cache.get(ctx.db);
  if (!byUse) cache.set(ctx.db, (byUse = new Map()));
  const key = `${use}:${alg}`;
  let pending = byUse.get(key);
  if (!pending) {
    pending = load(ctx, use, alg);
    byUse.set(key, pending);
    pending.catch(() => byUse.delete(key));
  }
  return pending;
}

const publicCache = new WeakMap<object, Map<string, Promise<CryptoKey | null>>>();

/** The public key with this `kid` (any not retired), for verifying what this instance signed. */
export function verificationKey(ctx: Pick<AppContext, "db">, kid: string): Promise<CryptoKey | null> {
  let byKid = publicCache.get(ctx.db);
  if (!byKid) publicCache.set(ctx.db, (byKid = new Map()));
  let pending = byKid.get(kid);
  if (!pending) {
    const row = ctx.db
      .select({ alg: signingKeys.alg, publicJwk: signingKeys.publicJwk })
      .from(signingKeys)
      .where(and(eq(signingKeys.kid, kid), isNull(signingKeys.retiredAt)))
      .get();
    if (!row) return Promise.resolve(null); // unknown now; not cached, a key may appear later
    pending = importJWK(row.publicJwk as JWK, row.alg) as Promise<CryptoKey>;
    byKid.set(kid, pending);
  }
  return pending;
}
