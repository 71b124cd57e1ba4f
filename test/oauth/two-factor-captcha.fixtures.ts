import { afterAll, beforeAll } from "bun:test";
import { type SiteConfig, updateSiteConfig } from "../../src/identity/site-config/site-config.ts";
import { leadingZeroBits, powDigest } from "../../src/oauth/protocol/proof-of-work.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { manualClock } from "../helpers/clock.ts";
import { totpCode } from "../helpers/identity.ts";
import { solvePow } from "../helpers/pow.ts";
import { REDIRECT } from "./oauth.fixtures.ts";
import { type Browser, type Challenge, codeOf, confirm, info, twoFactorWorld, wrongTotpCode } from "./two-factor.fixtures.ts";

/* What the tests of the captcha gate on 2FA confirmations (proof of work, third-party providers, their settings) share. */

export const approved = (ch: Challenge, redirectTo: string) => ({ redirect_to: `${REDIRECT}?code=${codeOf(redirectTo)}&state=${ch.state}` });
export const refusal = (description: string) => ({ error: "invalid_request", error_description: description });

/** A nonce that does not solve `challenge` at `difficulty`. */
export function unsolvingNonce(challenge: string, difficulty: number) {
  for (let n = 0; ; n++) if (leadingZeroBits(powDigest(challenge, String(n))) < difficulty) return String(n);
}

export const MISSING = "The proof of work is missing or malformed.";
export const FORGED = "The proof of work was not issued here.";
export const OTHER = "The proof of work belongs to another confirmation.";
export const EXPIRED = "The proof of work expired. Reload the page to get a new one.";
export const UNSOLVED = "The proof of work is not solved.";
export const SPENT = "This proof of work was already used. Reload the page to get a new one.";

/**
 * A test file's app (outbound requests to loopback allowed, for a provider's stand-in) and its 2FA
 * world, started before its tests and stopped after them; `cast` is filled in once they start.
 */
export function captchaWorld() {
  /** Whole seconds plus 500 ms: a puzzle's expiry is kept in whole seconds, a challenge's in milliseconds. */
  const clock = manualClock(Math.floor(Date.now() / 1000) * 1000 + 500);
  const cast = {} as { app: TestApp; world: Awaited<ReturnType<typeof twoFactorWorld>> };
  beforeAll(async () => {
    cast.app = await startApp({ overrides: { clock, outbound: { allowLoopback: true } } });
    cast.world = await twoFactorWorld(cast.app, clock);
  });
  afterAll(() => cast.app.stop());

  const setConfig = (patch: Partial<SiteConfig> & { captcha_secret?: string }) => updateSiteConfig(cast.app.ctx, patch);

  /** A fresh TOTP code: the clock moves 75 seconds first (a step's code works once; 8 attempts per 5 minutes). */
  const code = async () => {
    clock.advance(75_000);
    return totpCode(cast.world.secret, clock.now());
  };

  const approve = (ch: Challenge, extra: Record<string, unknown>, browser: Browser = cast.world.browser) =>
    confirm(browser, { challenge_id: ch.id, state: ch.state, decision: "approve", confirmed: true, method: "totp", ...extra });

  /** The page's proof of work for a challenge, solved as the browser would. */
  async function solvedPow(id: string, browser: Browser = cast.world.browser) {
    const page = await info(browser, id);
    if (!page.data.pow) throw new Error(`no proof of work offered: ${JSON.stringify(page.data)}`);
    const { challenge, difficulty } = page.data.pow as { challenge: string; difficulty: number };
    return { pow_challenge: challenge, pow_nonce: solvePow(challenge, difficulty) };
  }

  /** Six digits that are no code of the three time steps the server accepts now. */
  const wrongCode = (secret: string) => wrongTotpCode(secret, clock.now());

  return { clock, cast, setConfig, code, approve, solvedPow, wrongCode };
}
