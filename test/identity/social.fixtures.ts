import { expect } from "bun:test";
import type { TestApp } from "../helpers/app.ts";
import type { jarFetch } from "../helpers/cookie-jar.ts";
import type { SignedUp } from "../helpers/identity.ts";
import { authorizeInBrowser } from "../helpers/oauth.ts";

type Browser = ReturnType<typeof jarFetch>;

export const PROVIDERS = "/api/oauth/admin/identity-providers";

/** An app at the upstream Cairn whose redirect is the downstream's callback for `slug`. */
export async function upstreamApp(owner: SignedUp, downstream: TestApp, slug: string, body: Record<string, unknown> = {}) {
  const res = await owner.browser.json("POST", "/api/oauth/me/clients", {
    name: `Sign in to ${downstream.url}`,
    redirect_uris: [{ uri: `${downstream.url}/api/auth/social/${slug}/callback`, match: "equals" }],
    scopes: ["openid", "profile", "email"],
    ...body,
  });
  expect(res.status).toBe(201);
  return res.data as { client_id: string; client_secret: string };
}

/** The downstream's start: the upstream URL the browser is sent to (and the binding cookie, in `browser`). */
export async function startAt(browser: Browser, slug: string, returnTo = "/apps"): Promise<URL> {
  const res = await browser.fetch(`/api/auth/social/${slug}/start?return_to=${encodeURIComponent(returnTo)}`);
  expect(res.status).toBe(302);
  return new URL(res.headers.get("location") as string);
}

/** The upstream user's part: authorize (consenting when asked); answers the downstream callback URL. */
export async function approveUpstream(user: SignedUp, authorizeUrl: URL, decision: "approve" | "deny" = "approve"): Promise<URL> {
  return authorizeInBrowser(user, authorizeUrl, decision);
}

/** The downstream callback, followed in `browser`: the status, where it sends the browser, and the page. */
export async function callbackIn(browser: Browser, callback: URL) {
  const res = await browser.fetch(callback.pathname + callback.search);
  return { status: res.status, location: res.headers.get("location"), body: await res.text() };
}

/** Start, approve upstream, callback: one whole sign-in (or link) at the provider. */
export async function signInWith(browser: Browser, upstreamUser: SignedUp, slug: string, returnTo = "/apps") {
  return callbackIn(browser, await approveUpstream(upstreamUser, await startAt(browser, slug, returnTo)));
}

/** Registers `upstream` as provider "upstream" at `down` (an app there, then the admin API). */
export async function addUpstreamProvider(upstream: TestApp, upOwner: SignedUp, down: TestApp, downAdmin: SignedUp) {
  const rp = await upstreamApp(upOwner, down, "upstream");
  const res = await downAdmin.browser.json("POST", PROVIDERS, {
    slug: "upstream",
    kind: "oidc",
    name: "Upstream Cairn",
    issuer: upstream.url,
    client_id: rp.client_id,
    client_secret: rp.client_secret,
  });
  expect(res.status).toBe(201);
  return res.data.provider as { id: string; slug: string; callback_url: string };
}
