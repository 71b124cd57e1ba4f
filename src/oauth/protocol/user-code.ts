import { randomInt } from "node:crypto";

/**
 * RFC 8628 section 6.1's base-20 alphabet: consonants only, so no digit to mistake for O or I and
 * no vowel to spell words; 20^8 ≈ 2.6·10^10 codes, shown as `BCDF-GHJK`, read case-insensitively.
 */
export const USER_CODE_ALPHABET = "BCDFGHJKLMNPQRSTVWXZ";
export const USER_CODE_LENGTH = 8;

/** A source of uniform integers in [0, max): the CSPRNG, unless a test needs to choose. */
type RandomBelow = (max: number) => number;

/** A fresh user code in its normalised form (no dash). */
export function newUserCode(random: RandomBelow = randomInt): string {
  let code = "";
  for (let i = 0; i < USER_CODE_LENGTH; i++) code += USER_CODE_ALPHABET[random(USER_CODE_ALPHABET.length)];
  return code;
}

/** As shown and spoken: two groups of four. */
export const displayUserCode = (code: string): string => `${code.slice(0, 4)}-${code.slice(4)}`;

/**
 * What a person typed, as stored: case, spaces and dashes do not matter. Null when it cannot be
 * a user code (wrong length, a character outside the alphabet).
 */
export function normalizeUserCode(typed: string): string | null {
  const code = typed.toUpperCase().replace(/[\s-]/g, "");
  if (code.length !== USER_CODE_LENGTH) return null;
  for (const c of code) if (!USER_CODE_ALPHABET.includes(c)) return null;
  return code;
}
