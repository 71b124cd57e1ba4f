import { describe, expect, it } from "bun:test";
import { routeKey, withThrowawayApp } from "../../src/build/routes-table.ts";

/*
 * One typed contract between the SPA and the server: every JSON answer of the app is described by a
 * schema in src/contract/api, set as its route's `response:` (so the server checks what it sends)
 * and read by web/src/api as its types (so the SPA's types are the server's). What is left out is
 * named here with the reason; the test fails on a route that has neither.
 */
const NOT_JSON_OR_NOT_OURS: Record<string, string> = {
  // Answers defined by the RFCs for third-party clients, not the SPA; the hot paths answer prebuilt
  // Responses that a schema would never see.
  "GET /.well-known/openid-configuration": "OIDC Discovery 1.0, served from memory",
  "GET /.well-known/oauth-authorization-server": "RFC 8414, served from memory",
  "GET /.well-known/oauth-protected-resource": "RFC 9728, served from memory",
  "GET /.well-known/jwks.json": "RFC 7517, served from memory",
  "GET /api/oauth/jwks/classic": "RFC 7517",
  "GET /.well-known/webfinger": "RFC 7033",
  "OPTIONS /api/oauth/:endpoint": "CORS preflight, no body",
  "OPTIONS /api/oauth/2fa/:endpoint": "CORS preflight, no body",
  "POST /api/oauth/token": "RFC 6749 section 5.1",
  "POST /api/oauth/introspect": "RFC 7662",
  "POST /api/oauth/revoke": "RFC 7009",
  "ALL /api/oauth/userinfo": "OIDC Core 5.3",
  "POST /api/oauth/par": "RFC 9126",
  "POST /api/oauth/device_authorization": "RFC 8628",
  // Redirects and pages a person's browser follows.
  "GET /api/oauth/authorize": "redirect",
  "POST /api/oauth/authorize": "redirect",
  "GET /api/oauth/interaction/:id/resume": "redirect",
  "GET /api/oauth/end_session": "redirect",
  "GET /api/auth/social/:slug/start": "redirect",
  "GET /api/auth/social/:slug/callback": "redirect",
  "GET /api/workspace/login": "redirect",
  "GET /api/workspace/callback": "redirect",
  "GET /api/authz/continue": "redirect (forward auth, back to the protected app)",
  "GET /api/workspace/unsubscribe": "RFC 8058: a page for the person who opened a mail's unsubscribe link",
  "POST /api/workspace/unsubscribe": "RFC 8058 one-click: a page (a mail client reads only the status)",
  // Forward auth's check, asked by a reverse proxy on every request: a status and headers, no JSON.
  "GET /api/authz/forward-auth": "forward auth check for Caddy and Traefik: status and identity headers",
  "GET /api/authz/auth-request": "forward auth check for nginx: status and identity headers",
  // Other media types.
  "GET /metrics": "Prometheus text",
  "GET /api/realtime/sse": "an event stream",
  "WS /api/realtime/ws": "a WebSocket",
  "GET /api/shared/:token/events": "an event stream",
  "GET /api/shared/:token/badge.svg": "SVG",
  "GET /api/shared/:token/todo-list.svg": "SVG",
  "POST /api/webhook": "spec 3 section 4.4: plain-text answers for GitHub, not the SPA",
  "GET /docs": "HTML",
  "GET /docs/_assets/docs.css": "CSS",
  "GET /docs/_assets/icon.svg": "SVG",
  "GET /docs/_diagrams/:type/:file": "SVG",
  "GET /docs/:slug/_search": "HTML",
  "GET /docs/:slug/_files/*": "the repository's files",
  "GET /docs/:slug": "HTML",
  "GET /docs/:slug/*": "HTML",
  "GET /*": "the SPA",
};

type Route = { method: string; path: string; hooks?: { response?: unknown } };

describe("every JSON answer has its schema in src/contract/api", () => {
  it("each route has a response schema, or is named above with why not", async () => {
    const routes = await withThrowawayApp((app) => app.routes as Route[]);
    const missing = routes.filter((r) => r.hooks?.response === undefined && !(routeKey(r) in NOT_JSON_OR_NOT_OURS)).map(routeKey);
    expect(missing).toEqual([]);
  });

  it("names only routes that exist and have no schema", async () => {
    const routes = await withThrowawayApp((app) => app.routes as Route[]);
    const byKey = new Map(routes.map((r) => [routeKey(r), r]));
    const stale = Object.keys(NOT_JSON_OR_NOT_OURS).filter((key) => !byKey.has(key) || byKey.get(key)?.hooks?.response !== undefined);
    expect(stale).toEqual([]);
  });
});
