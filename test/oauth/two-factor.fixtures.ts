import { type jarFetch, readAnswer } from "../helpers/cookie-jar.ts";
import { signInWithTotp, type SignedUp, signUp, totpCode } from "../helpers/identity.ts";
import type { TestApp } from "../helpers/app.ts";
import type { manualClock } from "../helpers/clock.ts";
import { basicAuth, confidentialApp, pkce, postForm, REDIRECT } from "./oauth.fixtures.ts";

export const CHALLENGES = "/api/oauth/2fa/challenges";
export const INFO = "/api/oauth/2fa/info";
export const AUTHORIZE_2FA = "/api/oauth/2fa/authorize";
export const VERIFY = "/api/oauth/2fa/verify";
export const SUDO_REVOKE = "/api/oauth/2fa/sudo/revoke";

type Clock = ReturnType<typeof manualClock>;
export type Browser = ReturnType<typeof jarFetch>;
export type Challenge = Awaited<ReturnType<typeof newChallenge>>;

/** An app asks for a challenge: JSON, credentials as Basic unless `credentials` says otherwise. */
export async function askChallenge(
  app: TestApp,
  client: { client_id: string; client_secret?: string },
  body: Record<string, unknown>,
  credentials: "basic" | "body" | "none" = "basic",
) {
  const headers: Record<string, string> = { "content-type": "application/json" };
  let payload: Record<string, unknown> = { redirect_uri: REDIRECT, ...body };
  if (credentials === "basic" && client.client_secret) headers.authorization = basicAuth(client.client_id, client.client_secret);
  if (credentials === "body") payload = { client_id: client.client_id, ...(client.client_secret ? { client_secret: client.client_secret } : {}), ...payload };
  return readAnswer(await fetch(app.url + CHALLENGES, { method: "POST", headers, body: JSON.stringify(payload) }));
}

/**
 * The cast of a 2FA test: an app (confidential), and a user with TOTP signed in with it. Every
 * `nextCode()` moves the manual clock one 30-second step on, since a step's code works once.
 */
export async function twoFactorWorld(app: TestApp, clock: Clock, username = "alice") {
  const owner = await signUp(app, `${username}-owner`);
  const rp = await confidentialApp(app, owner);
  const user = await signUp(app, username);
  const signedIn = await signInWithTotp(app, user, () => clock.now());
  clock.advance(60_000);
  const nextCode = async () => {
    clock.advance(30_000);
    return totpCode(signedIn.secret, clock.now());
  };
  return { owner, rp, user, browser: signedIn.browser, secret: signedIn.secret, backupCodes: signedIn.backupCodes, nextCode };
}

/** A challenge the app made, with PKCE: its id, its verifier, and the state the app keeps. */
export async function newChallenge(app: TestApp, rp: { client_id: string; client_secret?: string }, body: Record<string, unknown> = {}) {
  const { verifier, challenge } = await pkce();
  const res = await askChallenge(app, rp, {
    action: "Delete repository acme/site",
    nonce: "n-123",
    code_challenge: challenge,
    code_challenge_method: "S256",
    ...body,
  });
  if (res.status !== 201) throw new Error(`challenge failed: ${res.status} ${JSON.stringify(res.data)}`);
  return { id: res.data.challenge_id as string, verifier, state: `st-${Math.random().toString(36).slice(2)}`, answer: res.data };
}

export const confirm = (browser: SignedUp["browser"], body: Record<string, unknown>) => browser.json("POST", AUTHORIZE_2FA, body);

/** The app redeems the code from the redirect. */
export const verify = (app: TestApp, rp: { client_id: string; client_secret: string }, form: Record<string, string>) =>
  postForm(app, VERIFY, { redirect_uri: REDIRECT, ...form }, { basic: [rp.client_id, rp.client_secret] });

export const codeOf = (redirectTo: string) => new URL(redirectTo).searchParams.get("code") as string;

/** What the confirmation page shows about a challenge. */
export const info = (browser: Browser, id: string) => browser.json("GET", `${INFO}?challenge_id=${encodeURIComponent(id)}`);

/** Six digits that are no code of the three time steps the server accepts at `now`. */
export async function wrongTotpCode(secret: string, now: number) {
  const near = await Promise.all([-1, 0, 1].map((step) => totpCode(secret, now, step)));
  for (let n = 0; ; n++) {
    const candidate = String(n).padStart(6, "0");
    if (!near.includes(candidate)) return candidate;
  }
}
