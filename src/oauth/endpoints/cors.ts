/** Browser apps (public clients with PKCE) call the token-family endpoints from their own origin; no cookie is involved. */
export const CORS = { "access-control-allow-origin": "*", "access-control-expose-headers": "DPoP-Nonce, WWW-Authenticate" };
export const NO_STORE = { "cache-control": "no-store", pragma: "no-cache", ...CORS };
export const PREFLIGHT = new Response(null, {
  status: 204,
  headers: {
    ...CORS,
    "access-control-allow-methods": "GET, POST",
    "access-control-allow-headers": "Authorization, Content-Type, DPoP",
    "access-control-max-age": "600",
  },
});
