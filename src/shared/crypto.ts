import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * URL-safe random string carrying `bytes` bytes from the CSPRNG. Web Crypto's generator and the
 * array's own base64url: a tenth of node:crypto's randomBytes and Buffer (two per token grant).
 */
export function randomToken(bytes = 32): string {
  return crypto.getRandomValues(new Uint8Array(bytes)).toBase64({ alphabet: "base64url", omitPadding: true });
}

/** The SHA-256 digest as bytes (for base64url encodings such as PKCE and DPoP `ath`). */
export const sha256 = (input: string | Uint8Array): Uint8Array => new Uint8Array(createHash("sha256").update(input).digest());

/** Hex SHA-256 (token and secret hashes). The runtime's one-shot hasher: it costs half of a node:crypto Hash object. */
export function sha256Hex(input: string | Uint8Array): string {
  return Bun.SHA256.hash(input, "hex");
}

const utf8 = new TextEncoder();

/** Compares two strings without leaking where they differ. */
export function constantTimeEqual(a: string, b: string): boolean {
  // UTF-8, as Buffer.from encodes, in a third of its time.
  const x = utf8.encode(a);
  const y = utf8.encode(b);
  // Compare against itself on a length mismatch so the work done does not depend on the input.
  return timingSafeEqual(x, x.length === y.length ? y : x) && x.length === y.length;
}

/**
 * Authenticated encryption (AES-256-GCM) of values kept at rest, such as private keys and
 * client secrets, under a key derived from the instance secret. `purpose` binds a sealed
 * value to its use, so one cannot be swapped for another.
 */
export type SecretBox = {
  seal(plaintext: string, purpose: string): string;
  open(sealed: string, purpose: string): string;
  /** A 32-byte key for `purpose`, derived from the instance secret: the same in every process of the instance, across restarts. */
  derive(purpose: string): Buffer;
};

export function createSecretBox(instanceSecret: string): SecretBox {
  const key = Buffer.from(hkdfSync("sha256", instanceSecret, "cairn", "cairn key-encryption key v1", 32));
  return {
    derive: (purpose) => Buffer.from(hkdfSync("sha256", instanceSecret, "cairn", `cairn ${purpose}`, 32)),
    seal(plaintext, purpose) {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv).setAAD(Buffer.from(purpose));
      const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
      return `v1.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url")}`;
    },
    open(sealed, purpose) {
      if (!sealed.startsWith("v1.")) throw new Error("unknown sealed value format");
      const raw = Buffer.from(sealed.slice(3), "base64url");
      const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, 12)).setAAD(Buffer.from(purpose));
      decipher.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
    },
  };
}
