import { describe, expect, it } from "bun:test";
import fc from "fast-check";
import { checkPow, issuePow, leadingZeroBits, powDigest } from "../../src/oauth/protocol/proof-of-work.ts";
import { solvePow } from "../helpers/pow.ts";

/* The proof-of-work puzzles of the captcha gate (src/oauth/protocol/proof-of-work.ts): verdicts and properties. */

describe("proof-of-work checking (src/oauth/protocol/proof-of-work.ts)", () => {
  const KEY = Buffer.alloc(32, 7);
  const NOW = 1_900_000_000_500;
  const puzzle = (binding: string, difficulty: number, random = "abcdefghijkl", now = NOW, ttlMs = 600_000) =>
    issuePow(KEY, { binding, now, ttlMs, difficulty, random });

  it("verdict expired at the puzzle's expiry (whole seconds), ok just before", () => {
    const challenge = puzzle("bind", 4);
    const nonce = solvePow(challenge, 4);
    const expiry = Math.floor((NOW + 600_000) / 1000) * 1000;
    expect(checkPow(KEY, challenge, nonce, "bind", expiry - 1)).toBe("ok");
    expect(checkPow(KEY, challenge, nonce, "bind", expiry)).toBe("expired");
  });

  it("verdicts for another binding, another key, and malformed input", () => {
    const challenge = puzzle("bind", 4);
    const nonce = solvePow(challenge, 4);
    expect(checkPow(KEY, challenge, nonce, "other", NOW)).toBe("other_challenge");
    expect(checkPow(Buffer.alloc(32, 8), challenge, nonce, "bind", NOW)).toBe("forged");
    expect(checkPow(KEY, challenge, "", "bind", NOW)).toBe("malformed");
    expect(checkPow(KEY, challenge, "1".repeat(17), "bind", NOW)).toBe("malformed");
    expect(checkPow(KEY, `${challenge}x`, nonce, "bind", NOW)).toBe("malformed");
  });

  it("leadingZeroBits counts the zero bits before the first one bit", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 8 }), (bytes) => {
        const bits = [...bytes].map((b) => b.toString(2).padStart(8, "0")).join("");
        const first = bits.indexOf("1");
        expect(leadingZeroBits(bytes)).toBe(first === -1 ? bits.length : first);
      }),
    );
  });

  const binding = fc.stringMatching(/^[0-9a-f]{32}$/);
  const random = fc.stringMatching(/^[A-Za-z0-9_-]{16}$/);
  const difficulty = fc.integer({ min: 1, max: 10 });

  it("property: what solvePow finds, checkPow accepts", () => {
    fc.assert(
      fc.property(binding, random, difficulty, (b, r, d) => {
        const challenge = puzzle(b, d, r);
        expect(checkPow(KEY, challenge, solvePow(challenge, d), b, NOW)).toBe("ok");
      }),
      { numRuns: 60 },
    );
  });

  it("property: any change to a puzzle's text is refused", () => {
    fc.assert(
      fc.property(binding, random, difficulty, fc.nat(), fc.constantFrom(..."0123456789abcdefxyzXYZ_-."), (b, r, d, at, ch) => {
        const challenge = puzzle(b, d, r);
        const i = at % challenge.length;
        fc.pre(challenge[i] !== ch);
        const tampered = challenge.slice(0, i) + ch + challenge.slice(i + 1);
        const nonce = solvePow(tampered, d);
        expect(checkPow(KEY, tampered, nonce, b, NOW)).not.toBe("ok");
      }),
      { numRuns: 150 },
    );
  });

  it("property: a nonce is accepted exactly when its digest has the puzzle's zero bits", () => {
    fc.assert(
      fc.property(binding, random, difficulty, fc.bigInt({ min: 0n, max: 9_999_999_999_999_999n }), (b, r, d, n) => {
        const challenge = puzzle(b, d, r);
        const nonce = n.toString();
        const solves = leadingZeroBits(powDigest(challenge, nonce)) >= d;
        expect(checkPow(KEY, challenge, nonce, b, NOW)).toBe(solves ? "ok" : "unsolved");
      }),
      { numRuns: 300 },
    );
  });

  it("property: a nonce that is not a decimal counter is malformed", () => {
    fc.assert(
      fc.property(
        binding,
        fc.string({ minLength: 1, maxLength: 20 }).filter((s) => !/^\d{1,16}$/.test(s)),
        (b, nonce) => {
          expect(checkPow(KEY, puzzle(b, 4), nonce, b, NOW)).toBe("malformed");
        },
      ),
    );
  });
});
