import { beforeAll, describe, expect, it } from "bun:test";
import { routeKey, withThrowawayApp } from "../../src/build/routes-table.ts";
import { OAUTH_PATHS, TWO_FA_PATHS } from "../../src/oauth/protocol/paths.ts";

/*
 * OAUTH_PATHS is what discovery advertises and CORS answers for; the routes write their paths
 * literally. The two must name the same endpoints, with the methods each one answers.
 */
const OAUTH_METHODS: Record<keyof typeof OAUTH_PATHS, string[]> = {
  authorization: ["GET", "POST"],
  token: ["POST"],
  userinfo: ["ALL"],
  introspection: ["POST"],
  revocation: ["POST"],
  registration: ["POST"],
  par: ["POST"],
  deviceAuthorization: ["POST"],
  endSession: ["GET", "POST"],
  jwks: ["GET"],
  jwksClassic: ["GET"],
};
const TWO_FA_METHODS: Record<keyof typeof TWO_FA_PATHS, string[]> = {
  challenges: ["POST"],
  info: ["GET"],
  passkeyOptions: ["POST"],
  authorize: ["POST"],
  verify: ["POST"],
  sudoRevoke: ["POST"],
};
/** Routes right under /api/oauth that are not protocol endpoints: the resource API's profile and the CORS preflight. */
const NOT_ENDPOINTS = new Set(["/api/oauth/me", "/api/oauth/:endpoint"]);

let routes: string[] = [];
let discovery: Record<string, unknown> = {};
let issuer = "";
beforeAll(async () => {
  await withThrowawayApp(async (app, ctx) => {
    routes = app.routes.map(routeKey);
    issuer = ctx.config.issuer;
    discovery = await (await app.handle(new Request(`${issuer}/.well-known/openid-configuration`))).json();
  });
});
const methodsAt = (path: string) =>
  routes
    .filter((route) => route.endsWith(` ${path}`))
    .map((route) => route.split(" ")[0])
    .sort();

describe("OAUTH_PATHS and the router", () => {
  const expected = [
    ...Object.entries(OAUTH_PATHS).map(([name, path]) => [name, path, OAUTH_METHODS[name as keyof typeof OAUTH_PATHS]] as const),
    ...Object.entries(TWO_FA_PATHS).map(([name, path]) => [name, path, TWO_FA_METHODS[name as keyof typeof TWO_FA_PATHS]] as const),
  ];
  for (const [name, path, methods] of expected) {
    it(`${name} (${path}) is a route answering ${methods.join(", ")}`, () => {
      expect(methodsAt(path)).toEqual([...methods].sort());
    });
  }

  it("every endpoint discovery advertises is in OAUTH_PATHS and is a route", () => {
    const advertised = Object.entries(discovery)
      .filter(([key, value]) => (key.endsWith("_endpoint") || key === "jwks_uri") && typeof value === "string")
      .map(([key, value]) => [key, (value as string).slice(issuer.length)] as const);
    expect(advertised.length).toBeGreaterThan(5);
    const known = new Set<string>(Object.values(OAUTH_PATHS));
    expect(advertised.filter(([, path]) => !known.has(path) || methodsAt(path).length === 0)).toEqual([]);
  });

  it("every route right under /api/oauth (a protocol endpoint's place) is in OAUTH_PATHS", () => {
    const known = new Set<string>(Object.values(OAUTH_PATHS));
    const endpoints = routes.map((route) => route.split(" ")[1] as string).filter((path) => /^\/api\/oauth\/[^/]+$/.test(path) && !NOT_ENDPOINTS.has(path));
    expect([...new Set(endpoints)].filter((path) => !known.has(path))).toEqual([]);
  });
});
