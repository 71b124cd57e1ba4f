import { afterAll, beforeAll } from "bun:test";
import { startApp, type TestApp } from "../helpers/app.ts";
import { manualClock } from "../helpers/clock.ts";
import { jarFetch } from "../helpers/cookie-jar.ts";
import { PASSWORD, type SignedUp, totpCode } from "../helpers/identity.ts";
import { confidentialApp, REDIRECT, type RegisteredApp } from "./oauth.fixtures.ts";
import { type Browser, type Challenge, codeOf, confirm, newChallenge, twoFactorWorld, wrongTotpCode } from "./two-factor.fixtures.ts";

/* What the tests of the 2FA challenges (spec 1 section 3: requests, state tables, limits) share. */

export const ACTION = "Delete repository acme/site";
export const NONCE = "n-123";
/** randomToken(32): 43 base64url characters. */
export const OPAQUE = /^[A-Za-z0-9_-]{43}$/;
export const GONE = {
  error: "not_found",
  error_description: "This confirmation request has expired or was already answered. Go back to the application and start again.",
};

export const approve = (browser: Browser, ch: Challenge, extra: Record<string, unknown>) =>
  confirm(browser, { challenge_id: ch.id, state: ch.state, decision: "approve", confirmed: true, ...extra });

export const approvedRedirect = (ch: Challenge, redirectTo: string) => `${REDIRECT}?code=${codeOf(redirectTo)}&state=${ch.state}`;
export const deniedRedirect = (ch: Challenge) => `${REDIRECT}?error=access_denied&state=${ch.state}`;

/**
 * A test file's app on a manual clock, and its 2FA world (an app, its owner, a user with TOTP),
 * started before its tests and stopped after them; `cast` is filled in once they start.
 */
export function challengesWorld() {
  const clock = manualClock();
  const cast = {} as { app: TestApp; world: Awaited<ReturnType<typeof twoFactorWorld>>; rp: RegisteredApp; owner: SignedUp };
  beforeAll(async () => {
    cast.app = await startApp({ overrides: { clock } });
    cast.world = await twoFactorWorld(cast.app, clock);
    cast.rp = cast.world.rp;
    cast.owner = cast.world.owner;
  });
  afterAll(() => cast.app.stop());

  /**
   * A fresh TOTP code for the world's user. The clock moves 75 seconds first: a time step's code
   * works once, and at this pace at most four codes fall in one 5-minute attempt window, which
   * leaves room for the wrong codes and sign-ins the tests add (8 attempts per 5 minutes).
   */
  const code = async (secret = cast.world.secret) => {
    clock.advance(75_000);
    return totpCode(secret, clock.now());
  };

  /** An app of the world's owner: its own sudo windows and its own creation-rate window. */
  const anotherApp = (name = "Other app") => confidentialApp(cast.app, cast.owner, { name });

  /** The world's user signs in again with password and code: a new session (cookie browser) and its JWT. */
  async function signInAgain(username = cast.world.user.user.username, secret = cast.world.secret) {
    const browser = jarFetch(cast.app.url);
    const res = await browser.json("POST", "/api/auth/login", { login: username, password: PASSWORD, code: await code(secret) });
    if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${JSON.stringify(res.data)}`);
    const token = res.data.session_token as string;
    return {
      browser,
      token,
      bearer: (method: string, path: string, body?: unknown) => cast.app.client().json(method, path, body, { authorization: `Bearer ${token}` }),
    };
  }

  /** Confirms with a fresh TOTP code and opens the sudo window for the challenge's app on `browser`'s session. */
  async function openWindow(browser: Browser, client: RegisteredApp) {
    const ch = await newChallenge(cast.app, client);
    const res = await approve(browser, ch, { method: "totp", code: await code(), remember_sudo: true });
    if (res.status !== 200 || res.data.error) throw new Error(`opening a sudo window failed: ${res.status} ${JSON.stringify(res.data)}`);
    return { opened: clock.now(), ch, res };
  }

  /** Six digits that are no code of the three time steps the server accepts now. */
  const wrongCode = (secret: string) => wrongTotpCode(secret, clock.now());

  return { clock, cast, code, anotherApp, signInAgain, openWindow, wrongCode };
}
