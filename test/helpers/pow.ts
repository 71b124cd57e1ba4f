import { leadingZeroBits, powDigest } from "../../src/oauth/protocol/proof-of-work.ts";

/** Solves a proof-of-work challenge as the browser does: counts nonces up from 0 until one holds. */
export function solvePow(challenge: string, difficulty: number): string {
  for (let n = 0; ; n++) if (leadingZeroBits(powDigest(challenge, String(n))) >= difficulty) return String(n);
}
