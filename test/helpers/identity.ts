import { updateSiteConfig } from "../../src/identity/admin/site-config.ts";
import type { TestApp } from "./app.ts";
import { jarFetch } from "./cookie-jar.ts";

export const PASSWORD = "correct horse battery staple";

/**
 * Registers a user through the API in a browser of its own (a cookie jar), opening registration
 * first when the instance has users. The first user of an instance is its admin.
 */
export async function signUp(app: TestApp, username: string, extra: { email?: string; name?: string } = {}) {
  updateSiteConfig(app.ctx, { registration: "open" });
  const browser = jarFetch(app.url);
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
