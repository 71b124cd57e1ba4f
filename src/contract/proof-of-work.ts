/**
 * The one rule of the 2FA page's proof of work that the browser's solver and the server's check
 * share: a digest's leading zero bits (hashcash).
 */
export function leadingZeroBits(digest: Uint8Array): number {
  let bits = 0;
  for (const byte of digest) {
    if (byte === 0) {
      bits += 8;
      continue;
    }
    return bits + Math.clz32(byte) - 24;
  }
  return bits;
}
