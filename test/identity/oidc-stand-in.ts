import { createHash } from "node:crypto";
import { exportJWK, generateKeyPair, SignJWT } from "jose";

export type OidcUser = { sub: string; preferred_username: string; name: string; email: string };

/**
 * How the stand-in signs the next ID token: with its published key (an honest provider), with a
 * key it never published under a key id of its own, or with one under the published key's id.
 */
export type Signing = "published" | "unpublished" | "unpublished-same-kid";

const KID = "stand-in-1";

/** RFC 6749 section 2.3.1: HTTP Basic of the form-encoded client id and secret. */
function basicCredentials(request: Request): string {
  const [id = "", secret = ""] = atob((request.headers.get("authorization") ?? "").replace(/^Basic /, "")).split(":");
  const decode = (part: string) => decodeURIComponent(part.replaceAll("+", " "));
  return `${decode(id)}:${decode(secret)}`;
}

/**
 * An OpenID provider stand-in on loopback, speaking what Cairn uses of one: discovery, the
 * authorize endpoint (which approves at once as `state.user`, with `iss` on the answer, RFC 9207),
 * the token endpoint (client_secret_basic and PKCE checked, an ES256 ID token) and its JWKS.
 * `state.signing` and `state.claims` let a test make its ID token forged or wrong; `now` is the
 * clock of the Cairn that signs in with it.
 */
export async function oidcStandIn(app: { clientId: string; clientSecret: string }, now: () => number) {
  const published = await generateKeyPair("ES256");
  const unpublished = await generateKeyPair("ES256");
  const jwks = { keys: [{ ...(await exportJWK(published.publicKey)), kid: KID, alg: "ES256", use: "sig" }] };
  const codes = new Map<string, { redirectUri: string; challenge: string; nonce: string; user: OidcUser }>();
  const state = { user: null as OidcUser | null, signing: "published" as Signing, claims: {} as Record<string, unknown> };

  const idToken = async (user: OidcUser, nonce: string) => {
    const iat = Math.floor(now() / 1000);
    const key = state.signing === "published" ? published.privateKey : unpublished.privateKey;
    const kid = state.signing === "unpublished" ? "stand-in-2" : KID;
    const claims = { iss: url, aud: app.clientId, iat, exp: iat + 300, ...user, email_verified: true, nonce, ...state.claims };
    return new SignJWT(claims).setProtectedHeader({ alg: "ES256", kid, typ: "JWT" }).sign(key);
  };

  const server: ReturnType<typeof Bun.serve> = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request): Promise<Response> {
      const path = new URL(request.url).pathname;
      const q = new URL(request.url).searchParams;
      if (path === "/.well-known/openid-configuration")
        return Response.json({
          issuer: url,
          authorization_endpoint: `${url}/authorize`,
          token_endpoint: `${url}/token`,
          jwks_uri: `${url}/jwks`,
          response_types_supported: ["code"],
          subject_types_supported: ["public"],
          id_token_signing_alg_values_supported: ["ES256"],
          token_endpoint_auth_methods_supported: ["client_secret_basic"],
          code_challenge_methods_supported: ["S256"],
          authorization_response_iss_parameter_supported: true,
        });
      if (path === "/jwks") return Response.json(jwks);
      if (path === "/authorize") {
        if (q.get("client_id") !== app.clientId || !state.user) return new Response("unknown app", { status: 404 });
        const code = crypto.randomUUID();
        codes.set(code, {
          redirectUri: q.get("redirect_uri") as string,
          challenge: q.get("code_challenge") as string,
          nonce: q.get("nonce") as string,
          user: state.user,
        });
        const back = new URL(q.get("redirect_uri") as string);
        back.search = new URLSearchParams({ code, state: q.get("state") as string, iss: url }).toString();
        return Response.redirect(back.href, 302);
      }
      if (path === "/token" && request.method === "POST") {
        const form = new URLSearchParams(await request.text());
        const grant = codes.get(form.get("code") ?? "");
        codes.delete(form.get("code") ?? "");
        if (basicCredentials(request) !== `${app.clientId}:${app.clientSecret}`) return Response.json({ error: "invalid_client" }, { status: 401 });
        const verifier = createHash("sha256")
          .update(form.get("code_verifier") ?? "")
          .digest("base64url");
        if (!grant || grant.redirectUri !== form.get("redirect_uri") || grant.challenge !== verifier)
          return Response.json({ error: "invalid_grant" }, { status: 400 });
        return Response.json({
          access_token: crypto.randomUUID(),
          token_type: "Bearer",
          expires_in: 300,
          id_token: await idToken(grant.user, grant.nonce),
        });
      }
      return new Response("not found", { status: 404 });
    },
  });
  const url: string = `http://127.0.0.1:${server.port}`;
  return { url, state, stop: () => server.stop(true) };
}
