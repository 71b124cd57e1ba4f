/**
 * The proof-of-work solver of the 2FA page, off the page's thread: finds a nonce such that
 * SHA-256("<challenge>:<nonce>") starts with `difficulty` zero bits, counting up from 0, and
 * reports progress as it goes. Built to /pow-worker.js (web/build.ts).
 */
import { leadingZeroBits } from "../../../src/contract/proof-of-work.ts";

const encoder = new TextEncoder();
// The project's types are the page's (DOM); a worker's global scope posts without a target origin.
const scope = self as unknown as { onmessage: ((event: MessageEvent) => void) | null; postMessage(message: unknown): void };

scope.onmessage = async (event: MessageEvent) => {
  const { challenge, difficulty } = event.data as { challenge: string; difficulty: number };
  const expected = 2 ** difficulty;
  for (let n = 0; ; n++) {
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(`${challenge}:${n}`)));
    if (leadingZeroBits(digest) >= difficulty) {
      scope.postMessage({ done: true, nonce: String(n) });
      return;
    }
    // The expected number of tries is 2^difficulty; past it the bar waits near the end.
    if (n % 1024 === 0) scope.postMessage({ done: false, progress: Math.min(0.99, 1 - Math.exp(-n / expected)) });
  }
};
