import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { createLogger } from "../../src/shared/log.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { signUp } from "../helpers/identity.ts";
import { waitFor } from "../helpers/wait.ts";

/*
 * Issue 42, item 16: a 401 to a caller that presented no credential at all is expected (a
 * signed-out page, a probe): its lines go out at debug, so an operator reading the log at info sees
 * only real refusals (a bad token, a wrong password), which stay at info.
 */
describe("the log level of 401s", () => {
  let app: TestApp;
  const lines: Record<string, unknown>[] = [];
  beforeAll(async () => {
    app = await startApp({ overrides: { log: createLogger("debug", (line) => lines.push(JSON.parse(line))) } });
    await signUp(app, "ada");
  });
  afterAll(() => app.stop());

  /** The levels of the request's "refused" and "request" lines, once both are written. */
  const levelsOf = async (res: { headers: Headers }) => {
    const id = res.headers.get("x-request-id");
    const of = (msg: string) => lines.find((l) => l.msg === msg && l.id === id)?.level;
    await waitFor(() => of("refused") && of("request"), { what: "the request's two log lines" });
    return { refused: of("refused"), request: of("request") };
  };

  it("logs a 401 to a caller without credentials at debug: the session check, a guarded route, the workspace", async () => {
    for (const path of ["/api/auth/session", "/api/oauth/me", "/api/teams/t1/sets", "/api/workspace/me"]) {
      const res = await app.json("GET", path, undefined, { cookie: "" });
      expect({ path, status: res.status }).toEqual({ path, status: 401 });
      expect({ path, ...(await levelsOf(res)) }).toEqual({ path, refused: "debug", request: "debug" });
    }
  });

  it("keeps real refusals at info: a bad token, a stale cookie, a wrong password", async () => {
    const badToken = await app.json("GET", "/api/oauth/me", undefined, { authorization: "Bearer not-a-token", cookie: "" });
    const badSession = await app.json("GET", "/api/auth/session", undefined, { authorization: "Bearer a.b.c", cookie: "" });
    const staleCookie = await app.json("GET", "/api/auth/session", undefined, { cookie: "cairn_session=a.b.c" });
    const staleWorkspace = await app.json("GET", "/api/workspace/me", undefined, { cookie: "cairn_ws=gone" });
    const wrongPassword = await app.client().json("POST", "/api/auth/login", { login: "ada", password: "not the password" });
    for (const res of [badToken, badSession, staleCookie, staleWorkspace, wrongPassword]) {
      expect(res.status).toBe(401);
      expect(await levelsOf(res)).toEqual({ refused: "info", request: "info" });
    }
  });

  it("writes nothing for an expected 401 at the default level, info", async () => {
    const quiet: Record<string, unknown>[] = [];
    const other = await startApp({ overrides: { log: createLogger("info", (line) => quiet.push(JSON.parse(line))) } });
    try {
      const res = await other.json("GET", "/api/auth/session", undefined, { cookie: "" });
      const seen = await other.json("GET", "/api/auth/session", undefined, { authorization: "Bearer a.b.c", cookie: "" });
      await waitFor(() => quiet.some((l) => l.msg === "request" && l.id === seen.headers.get("x-request-id")), { what: "the bad token's line" });
      expect(quiet.filter((l) => l.id === res.headers.get("x-request-id"))).toEqual([]);
    } finally {
      await other.stop();
    }
  });
});
