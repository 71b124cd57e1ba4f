import { afterAll, describe, expect, it } from "bun:test";
import { createApp } from "../../src/app.ts";
import { bootContext } from "../../src/boot.ts";
import { loadConfig } from "../../src/config/config.ts";
import { closeDatabase } from "../../src/db/client.ts";
import { routeStyles } from "../../src/shared/error-style.ts";
import { createLogger } from "../../src/shared/log.ts";
import { tempDir } from "../helpers/temp.ts";

/*
 * The shape of the errors the HTTP core makes itself (a body it cannot read, no such route, a
 * write it could not save) is the owning router's: each routes plugin declares it, and the
 * mapper asks the app's own route table, not the path's prefix.
 */
const ctx = await bootContext(loadConfig({ CAIRN_DATA: tempDir(), PORT: "1", CAIRN_ISSUER: "http://127.0.0.1:1" }), { log: createLogger("silent") });
const app = createApp(ctx);
afterAll(() => closeDatabase(ctx.db));
const styleOf = routeStyles(() => app.routes);

const send = async (method: string, path: string, body?: string) => {
  const res = await app.handle(new Request(`http://127.0.0.1:1${path}`, { method, body, headers: body ? { "content-type": "application/json" } : {} }));
  return { status: res.status, data: await res.json() };
};

describe("each router declares its error style", () => {
  it("the identity and OAuth APIs (every route under /api/auth, /api/oauth and forward auth's /api/authz) answer in RFC 6749's shape, registration with RFC 7591's code, every other route in the spec's", () => {
    const rfc6749 = ["/api/auth/", "/api/oauth/", "/api/authz/"];
    const expected = (path: string) =>
      path.startsWith("/api/oauth/register") ? "rfc7591" : rfc6749.some((prefix) => path.startsWith(prefix)) ? "rfc6749" : "spec";
    const wrong = app.routes.filter((r) => styleOf(r.path, r.path) !== expected(r.path)).map((r) => `${r.method} ${r.path}: ${styleOf(r.path, r.path)}`);
    expect(wrong).toEqual([]);
  });

  it("one path has one style, whatever router declares another method of it", () => {
    const seen = new Map<string, Set<string>>();
    for (const r of app.routes) seen.set(r.path, (seen.get(r.path) ?? new Set()).add(styleOf(r.path, r.path)));
    expect([...seen].filter(([, styles]) => styles.size > 1)).toEqual([]);
  });

  it("an unknown path answers like the routes nearest its folder", () => {
    expect(styleOf(undefined, "/api/oauth/nope")).toBe("rfc6749");
    expect(styleOf(undefined, "/api/oauth/me/teams/t1/nope/deeper")).toBe("rfc6749");
    expect(styleOf(undefined, "/api/oauth/register/c1/nope")).toBe("rfc6749");
    expect(styleOf(undefined, "/api/auth/nope")).toBe("rfc6749");
    expect(styleOf(undefined, "/api/oauth/")).toBe("rfc6749");
    // A folder of both kinds, or none: the spec's.
    expect(styleOf(undefined, "/api/oauth")).toBe("spec");
    expect(styleOf(undefined, "/api/oauthx/nope")).toBe("spec");
    expect(styleOf(undefined, "/api/no/such/thing")).toBe("spec");
    expect(styleOf(undefined, "/api/docs/nope")).toBe("spec");
    expect(styleOf(undefined, "/.well-known/nope")).toBe("spec");
    expect(styleOf(undefined, "/nope")).toBe("spec");
  });
});

describe("the HTTP core's own errors, in the owning router's style", () => {
  it("no such route: RFC 6749 under the OAuth API, the spec's elsewhere (a GET of an unknown API path is the SPA's 404)", async () => {
    expect(await send("POST", "/api/oauth/nope")).toEqual({ status: 404, data: { error: "not_found", error_description: "No such endpoint." } });
    expect(await send("DELETE", "/api/auth/nope")).toEqual({ status: 404, data: { error: "not_found", error_description: "No such endpoint." } });
    for (const [method, path] of [
      ["POST", "/api/teams/t1/nope"],
      ["POST", "/.well-known/nope"],
      ["PUT", "/api/oauth"],
      ["GET", "/api/oauth/nope"],
    ])
      expect(await send(method as string, path as string)).toEqual({ status: 404, data: { error: "Not found", code: "not_found" } });
  });

  it("a malformed body: the route's own style, RFC 7591's code on dynamic registration", async () => {
    expect(await send("POST", "/api/auth/login", "{nope")).toEqual({
      status: 400,
      data: { error: "invalid_request", error_description: "The body is not valid JSON." },
    });
    expect(await send("POST", "/api/oauth/register", "{nope")).toEqual({
      status: 400,
      data: { error: "invalid_client_metadata", error_description: "The body is not valid JSON." },
    });
    expect(await send("PUT", "/api/init/config", "{nope")).toEqual({ status: 400, data: { error: "Invalid request", code: "invalid_request" } });
  });
});
