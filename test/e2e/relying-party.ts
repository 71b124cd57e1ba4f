import * as client from "openid-client";
import { freePort } from "../helpers/temp.ts";

type Pending = { verifier: string; state: string; nonce: string; maxAge?: number };
type Credentials = { clientId: string; secret: string };

const SHOWN_CLAIMS = ["sub", "preferred_username", "email", "acr", "auth_time"] as const;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const html = (title: string, body: string) =>
  new Response(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body>${body}</body></html>`, {
    headers: { "content-type": "text/html; charset=utf-8" },
  });

/**
 * A small confidential web app that signs people in with Cairn through openid-client: `/login`
 * starts the code flow (PKCE, state, nonce) and `/callback` redeems the code and shows the
 * verified ID token's claims. `prompt`, `max_age` and `acr_values` on /login go into the
 * authorization request (a `max_age` is then checked against the ID token's `auth_time` too).
 */
export function startRelyingParty(issuer: string) {
  const port = freePort();
  const redirectUri = `http://localhost:${port}/callback`;
  let credentials: Credentials | null = null;
  let config: client.Configuration | null = null;
  const pending = new Map<string, Pending>();
  /** The access token of the last sign-in, so a test can call the API as the app. */
  let lastAccessToken: string | null = null;

  const configuration = async () => {
    if (!credentials) throw new Error("the relying party has no client credentials yet");
    config ??= await client.discovery(
      new URL(issuer),
      credentials.clientId,
      { id_token_signed_response_alg: "ML-DSA-65" },
      client.ClientSecretBasic(credentials.secret),
      {
        execute: [client.allowInsecureRequests],
      },
    );
    return config;
  };

  const login = async (url: URL) => {
    const verifier = client.randomPKCECodeVerifier();
    const maxAge = url.searchParams.get("max_age");
    const flow: Pending = { verifier, state: client.randomState(), nonce: client.randomNonce(), ...(maxAge !== null ? { maxAge: Number(maxAge) } : {}) };
    const id = crypto.randomUUID();
    pending.set(id, flow);
    const passed = Object.fromEntries(["prompt", "max_age", "acr_values"].flatMap((name) => url.searchParams.getAll(name).map((v) => [name, v])));
    const target = client.buildAuthorizationUrl(await configuration(), {
      redirect_uri: redirectUri,
      scope: "openid profile email offline_access",
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
      state: flow.state,
      nonce: flow.nonce,
      ...passed,
    });
    // Cookies on localhost ignore the port: a name of its own keeps it apart from Cairn's.
    return new Response(null, { status: 302, headers: { location: target.href, "set-cookie": `rp_flow=${id}; Path=/; HttpOnly; SameSite=Lax` } });
  };

  const callback = async (request: Request, url: URL) => {
    const error = url.searchParams.get("error");
    if (error) return html("Sign-in failed", `<h1>Sign-in failed</h1><p>Error: <code data-claim="error">${escapeHtml(error)}</code></p>`);
    const id = /(?:^|;\s*)rp_flow=([^;]+)/.exec(request.headers.get("cookie") ?? "")?.[1] ?? "";
    const flow = pending.get(id);
    if (!flow) return html("No sign-in in progress", "<h1>No sign-in in progress</h1>");
    pending.delete(id);
    try {
      const tokens = await client.authorizationCodeGrant(await configuration(), url, {
        pkceCodeVerifier: flow.verifier,
        expectedState: flow.state,
        expectedNonce: flow.nonce,
        ...(flow.maxAge !== undefined ? { maxAge: flow.maxAge } : {}),
      });
      lastAccessToken = tokens.access_token;
      const claims = (tokens.claims() ?? {}) as Record<string, unknown>;
      const rows = SHOWN_CLAIMS.map((name) => `<dt>${name}</dt><dd data-claim="${name}">${escapeHtml(String(claims[name] ?? ""))}</dd>`).join("");
      return html("Signed in", `<h1>Signed in to the test app</h1><dl>${rows}</dl>`);
    } catch (e) {
      return html("Sign-in failed", `<h1>Sign-in failed</h1><p data-claim="failure">${escapeHtml(String((e as Error).message))}</p>`);
    }
  };

  const server = Bun.serve({
    port,
    hostname: "127.0.0.1",
    fetch(request) {
      const url = new URL(request.url);
      if (url.pathname === "/login") return login(url);
      if (url.pathname === "/callback") return callback(request, url);
      return new Response("Not found", { status: 404 });
    },
  });

  return {
    url: `http://localhost:${port}`,
    redirectUri,
    /** The client ID and secret read from Cairn's "My apps" page. */
    use(next: Credentials) {
      credentials = next;
      config = null;
    },
    accessToken: () => lastAccessToken,
    stop: () => server.stop(true),
  };
}
