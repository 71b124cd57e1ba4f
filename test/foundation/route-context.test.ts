import { afterAll, describe, expect, it } from "bun:test";
import { createApp } from "../../src/app.ts";
import { bootContext } from "../../src/boot.ts";
import { loadConfig } from "../../src/config/config.ts";
import { closeDatabase } from "../../src/db/client.ts";
import { createLogger } from "../../src/shared/log.ts";
import { tempDir } from "../helpers/temp.ts";

/*
 * Elysia reads each route's handler and hooks to learn what of the request they use, and parses
 * only that. One global hook that hands its whole context to a function makes every route parse
 * the cookies, every header and the query first: a fifth of the CPU of forward auth's check
 * (issue 45), which runs on every request a proxy passes on. The compiled handlers say what is parsed.
 */
const ctx = await bootContext(loadConfig({ CAIRN_DATA: tempDir(), PORT: "1", CAIRN_ISSUER: "http://127.0.0.1:1" }), { log: createLogger("silent") });
const app = createApp(ctx);
afterAll(() => closeDatabase(ctx.db));

type CompiledRoute = { method: string; path: string; compile?: () => unknown; composed?: unknown };
const compiled = (method: string, path: string) => {
  const route = (app.routes as unknown as CompiledRoute[]).find((r) => r.method === method && r.path === path);
  if (!route) throw new Error(`no route ${method} ${path}`);
  return String(route.compile ? route.compile() : route.composed);
};

describe("what Elysia parses for a route", () => {
  it("a route that reads no cookie, header list or query has none of them parsed", () => {
    for (const path of ["/healthz", "/api/authz/forward-auth", "/api/authz/auth-request"]) {
      const handler = compiled("GET", path);
      expect(handler).not.toContain("parseCookie");
      expect(handler).not.toContain("headers.toJSON()");
      expect(handler).not.toContain("parseQuery");
    }
  });

  it("one that reads its query has it parsed (the check can fail)", () => {
    expect(compiled("GET", "/api/authz/continue")).toContain("parseQuery");
  });
});
