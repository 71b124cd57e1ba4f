import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { isSpaRoute, SPA_ROUTES } from "../../src/contract/spa-routes.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { signUp } from "../helpers/identity.ts";
import { workspaceSignIn } from "../helpers/workspace.ts";

/*
 * Issue 42, item 16: the server answers the web app's pages 200 and any other path 404 (with the
 * app's not-found page, not a soft 200), from one list of routes shared with the router; and the
 * shell says whether the request came with session cookies, so a signed-out page asks nothing.
 */

const APP_TSX = readFileSync(join(import.meta.dir, "../../web/src/app.tsx"), "utf8");
const routerPaths = [...APP_TSX.matchAll(/<Route\s+path="([^"]+)"/g)].map((m) => m[1] as string);

describe("the SPA's route list (src/contract/spa-routes.ts)", () => {
  it("holds every route of web/src/app.tsx's router, and nothing else", () => {
    expect(routerPaths.length).toBeGreaterThan(10);
    expect(routerPaths.filter((p) => !(SPA_ROUTES as readonly string[]).includes(p))).toEqual([]);
    expect(SPA_ROUTES.filter((p) => !routerPaths.includes(p))).toEqual([]);
  });

  it("matches paths as preact-iso does: a parameter is one segment, empty segments do not count", () => {
    expect(isSpaRoute("/")).toBe(true);
    expect(isSpaRoute("/apps/abc")).toBe(true);
    expect(isSpaRoute("/apps/abc/")).toBe(true);
    expect(isSpaRoute("//login")).toBe(true);
    expect(isSpaRoute("/apps/abc/more")).toBe(false);
    expect(isSpaRoute("/w/t1/sets/s1")).toBe(true);
    expect(isSpaRoute("/w/t1/sets")).toBe(false);
    expect(isSpaRoute("/nope")).toBe(false);
    expect(isSpaRoute("/a/b", ["/a/:x?", "/c/*"])).toBe(true);
    expect(isSpaRoute("/a", ["/a/:x?"])).toBe(true);
    expect(isSpaRoute("/c/d/e", ["/c/*"])).toBe(true);
    expect(isSpaRoute("/d", ["/a/:x?", "/c/*"])).toBe(false);
  });
});

describe("the SPA catch-all", () => {
  let app: TestApp;
  beforeAll(async () => (app = await startApp()));
  afterAll(() => app.stop());

  const shell = async (path: string, headers: Record<string, string> = {}) => {
    const res = await fetch(app.url + path, { headers, redirect: "manual" });
    return { status: res.status, type: res.headers.get("content-type"), cache: res.headers.get("cache-control"), body: await res.text() };
  };

  it("answers each page of the app 200, nested ones included", async () => {
    for (const path of ["/", "/login", "/apps", "/apps/some-client-id", "/teams/t-1", "/w/team-1/sets/set-1", "/s/a-share-token", "/2fa", "/apps/x/"]) {
      const answer = await shell(path);
      expect({ path, status: answer.status }).toEqual({ path, status: 200 });
      expect(answer.body).toContain('<div id="app">');
    }
  });

  it("answers any other path 404, with the app shell (its not-found page) rather than a soft 200", async () => {
    for (const path of ["/nope", "/apps/x/y", "/w/team-1/sets", "/login/extra", "/wp-admin/setup-config"]) {
      const answer = await shell(path);
      expect({ path, status: answer.status }).toEqual({ path, status: 404 });
      expect(answer.type).toContain("text/html");
      expect(answer.body).toContain('<div id="app">');
    }
  });

  it("tells the page whether session cookies came with it, and lets no cache keep that", async () => {
    const hints = (body: string) => JSON.parse((/<meta name="cairn-session" content="([^"]*)"/.exec(body)?.[1] ?? "").replaceAll("&#34;", '"'));
    const signedOut = await shell("/login");
    expect(hints(signedOut.body)).toEqual({ signed_in: false, workspace: false });
    expect(signedOut.cache).toBe("no-store");
    const ada = await signUp(app, "ada");
    await workspaceSignIn(app, ada);
    const cookie = [...ada.browser.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    expect(hints((await shell("/", { cookie })).body)).toEqual({ signed_in: true, workspace: true });
    // The issuer's meta is still there, escaped as before.
    expect(signedOut.body).toContain(`<meta name="cairn-issuer" content="${app.url}" />`);
  });

  it("clears a session cookie whose session ended, so the next page's shell says signed out", async () => {
    const bob = await signUp(app, "bob");
    expect((await bob.browser.json("POST", "/api/auth/logout")).status).toBe(200);
    // A browser that kept the old cookie (signed out elsewhere): the session check clears it.
    const stale = await fetch(`${app.url}/api/auth/session`, { headers: { cookie: `cairn_session=${bob.token}` } });
    expect(stale.status).toBe(401);
    expect(stale.headers.get("set-cookie")).toContain("cairn_session=;");
    // A caller with no cookie gets nothing to clear.
    const none = await fetch(`${app.url}/api/auth/session`);
    expect(none.status).toBe(401);
    expect(none.headers.get("set-cookie")).toBeNull();
  });
});
