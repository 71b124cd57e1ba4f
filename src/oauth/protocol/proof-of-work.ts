import { createHash, createHmac } from "node:crypto";
import { leadingZeroBits } from "../../contract/proof-of-work.ts";
import { constantTimeEqual } from "../../shared/crypto.ts";

export { leadingZeroBits };

/**
 * A stateless proof-of-work puzzle (hashcash): the server hands out `challenge`, MAC'd so that
 * nobody can change its binding, expiry or difficulty; the browser finds a `nonce` such that
 * SHA-256("<challenge>:<nonce>") starts with `difficulty` zero bits. Checking costs one hash;
 * solving costs about 2^difficulty. Single use is the caller's part (a primary-key insert).
 */
export type PowIssue = { binding: string; now: number; ttlMs: number; difficulty: number; random: string };

const FORMAT = /^v1\.([A-Za-z0-9_-]{1,64})\.(\d{1,15})\.(\d{1,2})\.([A-Za-z0-9_-]{8,64})\.([A-Za-z0-9_-]{43})$/;
/** A nonce is a decimal counter: the solver counts up from 0. */
const NONCE = /^\d{1,16}$/;

const mac = (key: Buffer, body: string) => createHmac("sha256", key).update(body).digest("base64url");

export function issuePow(key: Buffer, p: PowIssue): string {
  const body = `v1.${p.binding}.${Math.floor((p.now + p.ttlMs) / 1000)}.${p.difficulty}.${p.random}`;
  return `${body}.${mac(key, body)}`;
}

export const powDigest = (challenge: string, nonce: string) => createHash("sha256").update(`${challenge}:${nonce}`).digest();

export type PowVerdict = "ok" | "malformed" | "forged" | "other_challenge" | "expired" | "unsolved";

/** Checks a solution for the challenge bound to `binding` at `now` (milliseconds). */
export function checkPow(key: Buffer, challenge: string, nonce: string, binding: string, now: number): PowVerdict {
  const m = FORMAT.exec(challenge);
  if (!m || !NONCE.test(nonce)) return "malformed";
  const [, bound, expires, difficulty, , tag] = m as unknown as [string, string, string, string, string, string];
  if (!constantTimeEqual(tag, mac(key, challenge.slice(0, challenge.lastIndexOf("."))))) return "forged";
  if (bound !== binding) return "other_challenge";
  if (Number(expires) * 1000 <= now) return "expired";
  return leadingZeroBits(powDigest(challenge, nonce)) >= Number(difficulty) ? "ok" : "unsolved";
}
