import { createCipheriv, createDecipheriv } from "node:crypto";
import { randomToken, sha256Hex } from "../../shared/crypto.ts";

/**
 * Token values (issue 12): `<kind><id>.<secret>`, the secret 32 random bytes in base64url. `<id>`
 * names the token's row, so rows are written in issue order at the end of their table; it travels
 * encrypted (`TokenIds`), so a value shows neither the order of issue nor how many tokens the
 * instance issued. The secret is what makes the token, and only its SHA-256 is stored. Tokens
 * issued before ids (`legacy`) are the bare secret, found by hash.
 */
export type TokenKind = "access" | "refresh" | "machine";

const TAGS: Record<TokenKind, string> = { access: "a", refresh: "r", machine: "m" };
const KINDS: Record<string, TokenKind> = { a: "access", r: "refresh", m: "machine" };
const KEYED = /^([arm])([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;
const LEGACY = /^[A-Za-z0-9_-]{43}$/;

/**
 * Row ids sealed into 16 bytes (22 characters): the id and 8 zero bytes, encrypted with AES under
 * a key of the instance. One block in ECB mode is the block cipher itself, a keyed permutation, so
 * each id has one value and nothing else. A made-up value opens to non-zero padding (all but once
 * in 2^64) and is refused before any lookup.
 */
export type TokenIds = { seal(id: number): string; open(text: string): number | null };

export function createTokenIds(key: Buffer): TokenIds {
  const encrypt = createCipheriv("aes-256-ecb", key, null).setAutoPadding(false);
  const decrypt = createDecipheriv("aes-256-ecb", key, null).setAutoPadding(false);
  return {
    seal(id) {
      const block = Buffer.alloc(16);
      block.writeBigUInt64BE(BigInt(id));
      return encrypt.update(block).toString("base64url");
    },
    open(text) {
      const block = Buffer.from(text, "base64url");
      // One spelling per value: 22 characters carry 132 bits, so the last one's 4 spare bits are zero.
      if (block.length !== 16 || block.toString("base64url") !== text) return null;
      const plain = decrypt.update(block);
      if (plain.readBigUInt64BE(8) !== 0n) return null;
      const id = plain.readBigUInt64BE(0);
      return id >= 1n && id <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(id) : null;
    },
  };
}

/** What a presented value names: a row of one kind by id, or (legacy) a row of any kind by hash; `hash` is the secret's. */
export type TokenKey = { kind: TokenKind; id: number; hash: string } | { kind: "legacy"; hash: string };

export function parseTokenKey(ids: TokenIds, value: string): TokenKey | null {
  const keyed = KEYED.exec(value);
  if (keyed) {
    const id = ids.open(keyed[2] as string);
    return id === null ? null : { kind: KINDS[keyed[1] as string] as TokenKind, id, hash: sha256Hex(keyed[3] as string) };
  }
  return LEGACY.test(value) ? { kind: "legacy", hash: sha256Hex(value) } : null;
}

/** True when `value` has the shape of a token of `kind` (legacy ones included): the cheap test before any lookup. */
export function looksLike(kind: TokenKind, value: string): boolean {
  return LEGACY.test(value) || (value.startsWith(TAGS[kind]) && KEYED.test(value));
}

/**
 * A new secret and its hash; `insert` stores the hash and returns the row id the value carries,
 * sealed. An awaited insert (the database) gives a promise of the value; a direct one (seeding a
 * file with bun:sqlite) the value itself.
 */
export function newToken(ids: TokenIds, kind: TokenKind, insert: (hash: string) => number): string;
export function newToken(ids: TokenIds, kind: TokenKind, insert: (hash: string) => Promise<number>): Promise<string>;
export function newToken(ids: TokenIds, kind: TokenKind, insert: (hash: string) => number | Promise<number>): string | Promise<string> {
  const secret = randomToken(32);
  const id = insert(sha256Hex(secret));
  const value = (n: number) => `${TAGS[kind]}${ids.seal(n)}.${secret}`;
  return typeof id === "number" ? value(id) : id.then(value);
}

/** The cache key of a presented token: its secret's hash, with the id it claims. */
export const cacheKey = (key: TokenKey): string => (key.kind === "legacy" ? key.hash : `${key.id}.${key.hash}`);
