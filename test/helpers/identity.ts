import { generate } from "otplib";
import { updateSiteConfig } from "../../src/identity/site-config/site-config.ts";
import type { TestApp } from "./app.ts";

export const PASSWORD = "correct horse battery staple";

/**
 * Registers a user through the API in a browser of its own (a cookie jar), opening registration
 * first when the instance has users. The first user of an instance is its admin.
 */
export async function signUp(app: TestApp, username: string, extra: { email?: string; name?: string } = {}) {
  await updateSiteConfig(app.ctx, { registration: "open" });
  const browser = app.client();
  const res = await browser.json("POST", "/api/auth/register", {
    username,
    email: extra.email ?? `${username}@example.com`,
    password: PASSWORD,
    name: extra.name ?? username,
  });
  if (res.status !== 201) throw new Error(`sign-up of ${username} failed: ${res.status} ${JSON.stringify(res.data)}`);
  const token: string = res.data.session_token;
  return {
    user: res.data.user as { id: string; username: string; email: string; role: string },
    token,
    /** The user's browser: cookie-authenticated, same-origin. */
    browser,
    /** The same user as an API client: `Authorization: Bearer <session JWT>`. */
    bearer: (method: string, path: string, body?: unknown) => browser.json(method, path, body, { authorization: `Bearer ${token}`, cookie: "" }),
  };
}

export type SignedUp = Awaited<ReturnType<typeof signUp>>;

/** A TOTP code for `secret` at the server's time `nowMs`, `stepsAhead` 30-second steps later. */
export const totpCode = (secret: string, nowMs: number, stepsAhead = 0) => generate({ secret, epoch: Math.floor(nowMs / 1000) + stepsAhead * 30 });

/**
 * Enrols an authenticator for `user` and signs them in again with password and code in one request
 * (a session with `acr: mfa`). `nowMs` is the server's clock; the sign-in uses the next time step,
 * since a step's code is used once.
 */
export async function signInWithTotp(app: TestApp, user: SignedUp, nowMs: () => number) {
  const secret: string = (await user.browser.json("POST", "/api/oauth/me/totp")).data.secret;
  const confirmed = await user.browser.json("POST", "/api/oauth/me/totp/confirm", { code: await totpCode(secret, nowMs()) });
  if (confirmed.status !== 200) throw new Error(`TOTP enrolment failed: ${confirmed.status} ${JSON.stringify(confirmed.data)}`);
  const browser = app.client();
  const res = await browser.json("POST", "/api/auth/login", { login: user.user.username, password: PASSWORD, code: await totpCode(secret, nowMs(), 1) });
  if (res.status !== 200) throw new Error(`sign-in with a code failed: ${res.status} ${JSON.stringify(res.data)}`);
  return { secret, browser, backupCodes: confirmed.data.backup_codes as string[] };
}
