import type { CryptoKey } from "jose";
import type { SigningKey } from "./keystore.ts";

/** What the keystore keeps in memory for one app: imported keys and the served JWKS. */
export type KeyCache = {
  /** The signing_keys version the entries below were read at, and when: see freshKeys in keystore.ts. */
  version: number | null;
  checkedAt: number;
  /** The active signing key per `use:alg`. */
  active: Map<string, Promise<SigningKey>>;
  /** Imported public keys by `kid`, for verifying what this instance signed. */
  publicKeys: Map<string, Promise<CryptoKey>>;
  /** The JWKS document as served. */
  jwks: string | null;
};

declare module "../context/context.ts" {
  interface AppContext {
    keys: KeyCache;
  }
}

export const createKeyCache = (): KeyCache => ({ version: null, checkedAt: 0, active: new Map(), publicKeys: new Map(), jwks: null });
