import { constantTimeEqual, randomToken, sha256Hex } from "../../shared/crypto.ts";

/**
 * Token values (issue 12): `<kind><row id in base 36>.<secret>`, the secret 32 random bytes in
 * base64url. The id finds the row by its primary key, so rows are written in issue order; the
 * secret is what makes the token, and only its SHA-256 is stored. Tokens issued before ids
 * (`legacy`) are the bare secret, found by hash.
 */
export type TokenKind = "access" | "refresh" | "machine";

const TAGS: Record<TokenKind, string> = { access: "a", refresh: "r", machine: "m" };
const KINDS: Record<string, TokenKind> = { a: "access", r: "refresh", m: "machine" };
// Base 36 ids up to 10 digits (3.6e15) stay within Number.MAX_SAFE_INTEGER; no leading zero, so one id has one spelling.
const KEYED = /^([arm])([1-9a-z][0-9a-z]{0,9})\.([A-Za-z0-9_-]{43})$/;
const LEGACY = /^[A-Za-z0-9_-]{43}$/;

/** What a presented value names: a row of one kind by id, or (legacy) a row of any kind by hash; `hash` is the secret's. */
export type TokenKey = { kind: TokenKind; id: number; hash: string } | { kind: "legacy"; hash: string };

export function parseTokenKey(value: string): TokenKey | null {
  const keyed = KEYED.exec(value);
  if (keyed) return { kind: KINDS[keyed[1] as string] as TokenKind, id: Number.parseInt(keyed[2] as string, 36), hash: sha256Hex(keyed[3] as string) };
  return LEGACY.test(value) ? { kind: "legacy", hash: sha256Hex(value) } : null;
}

/** True when `value` has the shape of a token of `kind` (legacy ones included): the cheap test before any lookup. */
export function looksLike(kind: TokenKind, value: string): boolean {
  return LEGACY.test(value) || (value.startsWith(TAGS[kind]) && KEYED.test(value));
}

/** A new secret and its hash; `insert` stores the hash and returns the row id the value carries. */
export function newToken(kind: TokenKind, insert: (hash: string) => number): string {
  const secret = randomToken(32);
  const id = insert(sha256Hex(secret));
  return `${TAGS[kind]}${id.toString(36)}.${secret}`;
}

/** The cache key of a presented token: its secret's hash, with the id it claims. */
export const cacheKey = (key: TokenKey): string => (key.kind === "legacy" ? key.hash : `${key.id}.${key.hash}`);

/**
 * The row of table `kind` a key names: by id with the stored hash compared in constant time, or
 * for a legacy key by hash through the legacy index. A key of another kind names no row here.
 */
export function rowOf<R extends { tokenHash: string }>(
  key: TokenKey,
  kind: TokenKind,
  byId: (id: number) => R | undefined,
  byLegacyHash: (hash: string) => R | undefined,
): R | null {
  if (key.kind === "legacy") return byLegacyHash(key.hash) ?? null;
  if (key.kind !== kind) return null;
  const row = byId(key.id);
  return row && constantTimeEqual(row.tokenHash, key.hash) ? row : null;
}
