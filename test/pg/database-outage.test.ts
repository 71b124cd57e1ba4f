import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { startApp, type TestApp } from "../helpers/app.ts";
import { PASSWORD, type SignedUp, signUp } from "../helpers/identity.ts";
import { registerApp } from "../helpers/oauth.ts";
import { TEST_PG_SECRET } from "../helpers/pg-store.ts";
import { type PgCluster, pgSkipReason, startPostgres } from "../helpers/postgres.ts";
import { postForm, TOKEN } from "../oauth/oauth.fixtures.ts";

// Issue 46: PostgreSQL stops under a running Cairn (a restart, a failover). The instance says it is
// not ready, answers what needs the database with 503 and Retry-After in the route's own error
// shape (src/shared/http.errors.ts databaseUnavailable), never a 500, and serves again once the
// server is back, with no restart of its own.
const RFC6749_BODY = { error: "temporarily_unavailable", error_description: "The database is unavailable for a moment; try again." };
const SPEC_BODY = { error: "Service unavailable", code: "service_unavailable" };

describe.skipIf(pgSkipReason !== null)("issue 46: the database stops under a running instance", () => {
  let cluster: PgCluster;
  let app: TestApp;
  let owner: SignedUp;
  let service: { client_id: string; client_secret: string };

  beforeAll(async () => {
    cluster = (await startPostgres()) as PgCluster;
    app = await startApp({ env: { CAIRN_DATABASE_URL: await cluster.createDatabase(), CAIRN_SECRET: TEST_PG_SECRET } });
    owner = await signUp(app, "owner");
    const registered = await registerApp(owner, {
      name: "Backup robot",
      redirect_uris: [],
      grant_types: ["client_credentials"],
      client_credentials_scopes: ["backups:read"],
    });
    service = { client_id: registered.client_id, client_secret: registered.client_secret as string };
  });
  afterAll(async () => {
    await app?.stop();
    await cluster?.close();
  });

  /** Runs `body` with the server stopped as by a crash, and starts it again whatever happens. */
  async function whileStopped(body: () => Promise<void>): Promise<void> {
    await cluster.stop("immediate");
    try {
      await body();
    } finally {
      await cluster.start();
    }
  }

  const unhandled = () => app.logs.filter((line) => line.msg === "unhandled error");

  it("/readyz answers 503 database unavailable while the server is stopped, and 200 once it is back", async () => {
    expect((await app.json("GET", "/readyz")).data).toMatchObject({ ok: true, database: "ok" });
    await whileStopped(async () => {
      const down = await app.json("GET", "/readyz");
      expect(down.status).toBe(503);
      expect(down.data).toMatchObject({ ok: false, database: "unavailable" });
      expect(down.headers.get("cache-control")).toBe("no-store");
    });
    const up = await app.json("GET", "/readyz");
    expect([up.status, up.data.ok, up.data.database]).toEqual([200, true, "ok"]);
  });

  /** The requests of the test below, each as its own caller sends it. */
  const requests = {
    signIn: () => app.client().json("POST", "/api/auth/login", { login: "owner", password: PASSWORD }),
    profile: () => owner.browser.json("PATCH", "/api/oauth/me", { name: "Owner Again" }),
    setupConfig: () => owner.browser.json("PUT", "/api/init/config", { idp_client_id: "after-the-outage" }),
    token: () => postForm(app, TOKEN, { grant_type: "client_credentials", scope: "backups:read" }, { basic: [service.client_id, service.client_secret] }),
  };

  it("answers sign-in, a PATCH, a settings write and a token request 503 with Retry-After while stopped, and serves them once it is back", async () => {
    await whileStopped(async () => {
      for (const [name, expected] of [
        ["signIn", RFC6749_BODY],
        ["profile", RFC6749_BODY],
        ["setupConfig", SPEC_BODY],
        ["token", RFC6749_BODY],
      ] as const) {
        const res = await requests[name]();
        expect({ name, status: res.status, body: res.data }).toEqual({ name, status: 503, body: expected });
        expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
        expect(res.headers.get("cache-control")).toBe("no-store");
      }
    });
    expect(unhandled()).toEqual([]);

    const signIn = await requests.signIn();
    expect(signIn.status).toBe(200);
    expect(signIn.data.user.username).toBe("owner");
    const profile = await requests.profile();
    expect([profile.status, profile.data.user.name]).toEqual([200, "Owner Again"]);
    const config = await requests.setupConfig();
    expect([config.status, config.data.config.idp_client_id]).toEqual([200, "after-the-outage"]);
    const token = await requests.token();
    expect(token.status).toBe(200);
    expect(token.data).toMatchObject({ token_type: "Bearer", scope: "backups:read" });
    expect(unhandled()).toEqual([]);
  });

  it("signs no one out: the session check answers 503 and leaves the cookie, and the session works once the server is back", async () => {
    await whileStopped(async () => {
      const session = await owner.browser.json("GET", "/api/auth/session");
      expect([session.status, session.data, session.headers.get("set-cookie")]).toEqual([503, RFC6749_BODY, null]);
      // The keys are read from the database too: the JWKS answers 503 as well, in /.well-known's shape.
      const jwks = await app.json("GET", "/.well-known/jwks.json");
      expect([jwks.status, jwks.data]).toEqual([503, SPEC_BODY]);
    });
    const session = await owner.browser.json("GET", "/api/auth/session");
    expect([session.status, session.data.user?.username]).toEqual([200, "owner"]);
    expect((await app.json("GET", "/.well-known/jwks.json")).data.keys.length).toBeGreaterThan(0);
    expect(unhandled()).toEqual([]);
  });

  it("answers a logout whose id_token_hint names a key it must look up 503, rather than taking the hint for a stranger's", async () => {
    const part = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
    const hint = `${part({ alg: "RS256", kid: "a-key-not-in-memory" })}.${part({ sub: "x", iat: Math.floor(Date.now() / 1000) })}.c2ln`;
    const logout = () => fetch(`${app.url}/api/oauth/end_session?id_token_hint=${hint}`, { redirect: "manual" });
    await whileStopped(async () => {
      const res = await logout();
      expect(res.status).toBe(503);
      expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    });
    // Back up: the key is not ours, so the hint proves nothing and a person confirms the sign-out.
    const res = await logout();
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toStartWith("/logout");
    expect((await app.json("GET", "/.well-known/jwks.json")).data.keys.length).toBeGreaterThan(0);
    expect(unhandled()).toEqual([]);
  });
});
