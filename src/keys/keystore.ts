import { and, desc, eq, gt, isNull, or } from "drizzle-orm";
import { type CryptoKey, exportJWK, generateKeyPair, importJWK, type JWK } from "jose";
import type { AppContext } from "../context/context.ts";
import { randomToken } from "../shared/crypto.ts";
import { signingKeys } from "./keys.table.ts";
import { type Kept, tableVersionNow, whenKept } from "../db/table-version.ts";
import { withTx } from "../db/tx.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "secrets" | "keys">;

export type SigningKey = { kid: string; alg: string; privateJwk: JWK; privateKey: CryptoKey | null; publicJwk: JWK };

/** What a private key is sealed for (the AES-GCM associated data): it opens as no other value. */
export const signingKeyPurpose = (kid: string) => `signing_key:${kid}`;

/** Keys are rotated after this long; the old one stays published for the overlap. */
export const KEY_MAX_AGE_MS = 90 * 86_400_000;
export const KEY_OVERLAP_MS = 14 * 86_400_000;

/** Cached keys are read again at least this often: a retired key's overlap ends with time, not a write. */
const KEY_CACHE_MS = 60_000;

/** Held while a key is made or keys are rotated: by one process of one instance at a time. */
const SIGNING_KEYS_TURN = "cairn:signing_keys";

/**
 * The key cache, emptied first when the signing_keys table changed since it was filled (a
 * rotation by any worker, instance or `cairn keys rotate`: seen by the next request) or a minute
 * passed. From memory on SQLite; on PostgreSQL after reading the table's version (db/table-version.ts).
 */
export function freshKeys(ctx: Pick<AppContext, "db" | "clock" | "keys">): Kept<AppContext["keys"]> {
  return whenKept(tableVersionNow(ctx.db, "signing_keys"), (version) => {
    const cache = ctx.keys;
    const now = ctx.clock.now();
    if (version !== cache.version || now - cache.checkedAt >= KEY_CACHE_MS) {
      cache.active.clear();
      cache.publicKeys.clear();
      cache.jwks = null;
      cache.version = version;
      cache.checkedAt = now;
    }
    return cache;
  });
}

/** Imports a private JWK when the runtime's WebCrypto knows the algorithm, else null (fallback signer). */
async function importPrivate(jwk: JWK, alg: string): Promise<CryptoKey | null> {
  try {
    return (await importJWK(jwk, alg)) as CryptoKey;
  } catch {
    return null;
  }
}

/** A new key pair, not yet stored: generating it awaits, storing it does not. */
async function generateKey(use: string, alg: string): Promise<SigningKey & { use: string }> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true, ...(alg === "RS256" ? { modulusLength: 2048 } : {}) });
  const kid = randomToken(12);
  const publicJwk: JWK = { ...(await exportJWK(publicKey)), kid, alg, use: "sig" };
  return { kid, alg, use, privateJwk: await exportJWK(privateKey), privateKey, publicJwk };
}

async function storeKey(ctx: Ctx, key: SigningKey & { use: string }): Promise<SigningKey> {
  const { kid, alg, use, publicJwk, privateJwk } = key;
  await ctx.db
    .insert(signingKeys)
    .values({ kid, alg, use, publicJwk, privateJwkSealed: ctx.secrets.seal(JSON.stringify(privateJwk), signingKeyPurpose(kid)), createdAt: ctx.clock.now() })
    .run();
  return key;
}

const activeRow = (ctx: Ctx, use: string, alg: string) =>
  ctx.db
    .select()
    .from(signingKeys)
    .where(and(eq(signingKeys.use, use), eq(signingKeys.alg, alg), isNull(signingKeys.retiredAt)))
    .orderBy(desc(signingKeys.createdAt))
    .get();

/**
 * The active key, made on first need. Made under the lock, after looking again: processes and
 * instances that start together (issue 46) make one key, the first one's, and the others load it.
 */
async function loadActive(ctx: Ctx, use: string, alg: string): Promise<SigningKey> {
  let row = await activeRow(ctx, use, alg);
  if (!row) {
    const made = await generateKey(use, alg);
    row = await withTx(
      ctx.db,
      async () => {
        const first = await activeRow(ctx, use, alg);
        if (!first) await storeKey(ctx, made);
        return first;
      },
      { turn: SIGNING_KEYS_TURN },
    );
    if (!row) return made;
  }
  const privateJwk = JSON.parse(ctx.secrets.open(row.privateJwkSealed, signingKeyPurpose(row.kid))) as JWK;
  return { kid: row.kid, alg, privateJwk, privateKey: await importPrivate(privateJwk, alg), publicJwk: row.publicJwk as JWK };
}

/** The current key for `use` and `alg`, created (and sealed at rest) on first need; cached. */
export function signingKey(ctx: Ctx, use: string, alg: string): Promise<SigningKey> {
  return whenKept(freshKeys(ctx), ({ active: byKey }) => {
    const key = `${use}:${alg}`;
    const hit = byKey.get(key);
    if (hit) return hit;
    const pending = loadActive(ctx, use, alg);
    byKey.set(key, pending);
    pending.catch(() => byKey.delete(key));
    return pending;
  }) as Promise<SigningKey>;
}

/** Keys still published: active ones, and retired ones inside their overlap. */
const published = (now: number) => or(isNull(signingKeys.retiredAt), gt(signingKeys.retiredAt, now));

/** The public key with this `kid` (active or in its overlap), for verifying what this instance signed. */
export function verificationKey(ctx: Pick<AppContext, "db" | "clock" | "keys">, kid: string): Promise<CryptoKey | null> {
  return whenKept(freshKeys(ctx), ({ publicKeys: byKid }) => byKid.get(kid) ?? importPublished(ctx, byKid, kid)) as Promise<CryptoKey | null>;
}

async function importPublished(ctx: Pick<AppContext, "db" | "clock">, byKid: Map<string, Promise<CryptoKey>>, kid: string): Promise<CryptoKey | null> {
  const row = await ctx.db
    .select({ alg: signingKeys.alg, publicJwk: signingKeys.publicJwk })
    .from(signingKeys)
    .where(and(eq(signingKeys.kid, kid), published(ctx.clock.now())))
    .get();
  if (!row) return null; // unknown now; not cached, a key may appear later
  // A concurrent miss may have imported it meanwhile: one import is kept.
  const pending = byKid.get(kid) ?? (importJWK(row.publicJwk as JWK, row.alg) as Promise<CryptoKey>);
  byKid.set(kid, pending);
  return pending;
}

/** The public JWKs of `uses`, for /.well-known/jwks.json. */
export async function publishedJwks(ctx: Pick<AppContext, "db" | "clock">, uses: string[]): Promise<JWK[]> {
  const rows = await ctx.db
    .select({ use: signingKeys.use, publicJwk: signingKeys.publicJwk })
    .from(signingKeys)
    .where(published(ctx.clock.now()))
    .orderBy(desc(signingKeys.createdAt))
    .all();
  return rows.filter((k) => uses.includes(k.use)).map((k) => k.publicJwk as JWK);
}

/**
 * New keys for `use` (one per algorithm it signs with); the previous ones stay published for
 * KEY_OVERLAP_MS, so tokens they signed still verify. Returns the new kids.
 */
export async function rotateKeys(ctx: Ctx, use: string, algs: string[]): Promise<string[]> {
  const fresh = await Promise.all(algs.map((alg) => generateKey(use, alg)));
  // Retired and replaced in one transaction: no request in between finds no active key and makes its own.
  const now = ctx.clock.now();
  return withTx(
    ctx.db,
    async () => {
      await ctx.db
        .update(signingKeys)
        .set({ retiredAt: now + KEY_OVERLAP_MS })
        .where(and(eq(signingKeys.use, use), isNull(signingKeys.retiredAt)))
        .run();
      const kids: string[] = [];
      for (const key of fresh) kids.push((await storeKey(ctx, key)).kid);
      return kids;
    },
    { turn: SIGNING_KEYS_TURN },
  );
}

/** True when the active key of `use` is older than KEY_MAX_AGE_MS (the daily job rotates then). */
export async function keysDue(ctx: Pick<AppContext, "db" | "clock">, use: string): Promise<boolean> {
  const newest = await ctx.db
    .select({ createdAt: signingKeys.createdAt })
    .from(signingKeys)
    .where(and(eq(signingKeys.use, use), isNull(signingKeys.retiredAt)))
    .orderBy(desc(signingKeys.createdAt))
    .get();
  return newest !== undefined && ctx.clock.now() - newest.createdAt >= KEY_MAX_AGE_MS;
}
