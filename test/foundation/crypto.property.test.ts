import { describe, expect, it } from "bun:test";
import { randomBytes } from "node:crypto";
import fc from "fast-check";
import { constantTimeEqual, randomToken } from "../../src/shared/crypto.ts";

describe("randomToken", () => {
  it("carries exactly the bytes asked for, as unpadded base64url, the encoding Buffer would give", () => {
    for (const bytes of [6, 8, 9, 12, 15, 18, 24, 32, 64]) {
      const token = randomToken(bytes);
      expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(Buffer.from(token, "base64url").length).toBe(bytes);
      expect(Buffer.from(token, "base64url").toString("base64url")).toBe(token);
      expect(token.length).toBe(randomBytes(bytes).toString("base64url").length);
    }
  });

  it("never repeats in 10,000 draws", () => {
    const seen = new Set(Array.from({ length: 10_000 }, () => randomToken(16)));
    expect(seen.size).toBe(10_000);
  });
});

describe("constantTimeEqual", () => {
  it("agrees with === on any two strings, Unicode included", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme" }), fc.string({ unit: "grapheme" }), (a, b) => constantTimeEqual(a, b) === (a === b)),
      { numRuns: 2_000 },
    );
    // Equal strings, and near misses: one character changed, or one added.
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.nat(), (a, at) => {
        const i = at % a.length;
        const changed = a.slice(0, i) + String.fromCharCode(a.charCodeAt(i) ^ 1) + a.slice(i + 1);
        return constantTimeEqual(a, a) && !constantTimeEqual(a, changed) && !constantTimeEqual(a, `${a}x`) && !constantTimeEqual(`${a}x`, a);
      }),
      { numRuns: 2_000 },
    );
  });
});
