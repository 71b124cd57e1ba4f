import type { CryptoKey } from "jose";
import type { SigningKey } from "./keystore.ts";

/** What the keystore keeps in memory for one app: imported keys and the served JWKS. */
export type KeyCache = {
  /** The active signing key per `use:alg`, re-read after a minute (a rotation by the CLI takes over). */
  active: Map<string, { at: number; key: Promise<SigningKey> }>;
  /** Imported public keys by `kid`, for verifying what this instance signed. */
  publicKeys: Map<string, Promise<CryptoKey>>;
  /** The JWKS document as served, re-read every minute. */
  jwks: { at: number; body: string } | null;
};

declare module "../context/context.ts" {
  interface AppContext {
    keys: KeyCache;
  }
}

export const createKeyCache = (): KeyCache => ({ active: new Map(), publicKeys: new Map(), jwks: null });
