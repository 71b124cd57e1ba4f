import * as client from "openid-client";
import type { TestApp } from "./app.ts";
import type { SignedUp } from "./identity.ts";

export const REDIRECT = "https://rp.example.com/callback";

/** Registers an app through the dashboard API as `owner`; answers the client and its secret. */
export async function registerApp(owner: SignedUp, body: Record<string, unknown> = {}) {
  const res = await owner.browser.json("POST", "/api/oauth/me/clients", { name: "Test app", redirect_uris: [{ uri: REDIRECT, match: "equals" }], ...body });
  if (res.status !== 201) throw new Error(`app registration failed: ${res.status} ${JSON.stringify(res.data)}`);
  return res.data as { client_id: string; client_secret?: string; [k: string]: unknown };
}

/** openid-client's view of this issuer for a client (loopback http allowed, as tests need). */
export function discover(app: TestApp, clientId: string, secret: string | undefined, metadata: Partial<client.ClientMetadata> = {}, auth?: client.ClientAuth) {
  return client.discovery(
    new URL(app.url),
    clientId,
    { id_token_signed_response_alg: "ML-DSA-65", ...metadata },
    auth ?? (secret ? client.ClientSecretBasic(secret) : client.None()),
    {
      execute: [client.allowInsecureRequests],
    },
  );
}

/**
 * The user agent's part of the code flow: follow the authorization URL with the user's cookies,
 * approve consent when asked, and return the URL the browser lands on at the client.
 */
export async function authorizeInBrowser(user: SignedUp, url: URL, decision: "approve" | "deny" = "approve", extra: Record<string, string> = {}): Promise<URL> {
  let location = url.href;
  for (let hop = 0; hop < 5; hop++) {
    if (location.startsWith(REDIRECT) || (!location.startsWith("/") && !location.includes("/api/oauth/"))) return new URL(location);
    const res = await user.browser.fetch(location.startsWith("http") ? new URL(location).pathname + new URL(location).search : location);
    const next = res.headers.get("location");
    if (next === null) throw new Error(`no redirect from ${location}: ${res.status} ${await res.text()}`);
    if (next.startsWith("/consent?interaction=")) {
      const id = new URL(next, "http://x").searchParams.get("interaction") as string;
      const answer = await user.browser.json("POST", `/api/oauth/interaction/${id}`, { decision, ...extra });
      if (answer.status !== 200) throw new Error(`consent failed: ${answer.status} ${JSON.stringify(answer.data)}`);
      return new URL(answer.data.redirect_to);
    }
    location = next;
  }
  throw new Error("too many redirects");
}
