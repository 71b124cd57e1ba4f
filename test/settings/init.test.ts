import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { readIdpClientSecret } from "../../src/settings/init/init.service.ts";
import type { ConfigAccess, ConfigCaller } from "../../src/context/config-access.ts";
import { settings } from "../../src/db/settings.table.ts";
import { eq, sql } from "drizzle-orm";
import { startApp, type TestApp } from "../helpers/app.ts";

const EMPTY = {
  idp_base_url: "",
  idp_client_id: "",
  idp_client_secret: "",
  idp_redirect_uri: "",
  use_pkce: true,
  allowed_team_id: "",
  owner_team_id: "",
};

/** A stand-in for the identity product: callers named by an `x-test-user` header. */
function fakeAccess(users: Record<string, ConfigCaller & { owns: string[] }>): ConfigAccess {
  return {
    caller: (request) => users[request.headers.get("x-test-user") ?? ""] ?? null,
    ownsAnyTeam: (caller, teamIds) => teamIds.some((id) => users[caller.userId]?.owns.includes(id)),
  };
}

describe("spec 3 section 4.1: before initialization", () => {
  let app: TestApp;
  beforeAll(async () => (app = await startApp()));
  afterAll(() => app.stop());

  it("GET /api/init/status answers {configured:false}", async () => {
    const res = await app.json("GET", "/api/init/status");
    expect(res.status).toBe(200);
    expect(res.data).toEqual({ configured: false });
  });

  it("GET /api/init/branding answers the built-in name and no logo", async () => {
    const res = await app.json("GET", "/api/init/branding");
    expect(res.data).toEqual({ site_name: "Cairn", site_logo_url: "" });
  });

  it("GET /api/init/config answers every field of 2.1 with empty defaults", async () => {
    const res = await app.json("GET", "/api/init/config");
    expect(res.status).toBe(200);
    expect(res.data).toEqual({ config: EMPTY });
    expect(res.headers.get("cairn-locked-fields")).toBeNull();
  });

  it("PUT /api/init/config needs no auth and changes only the provided fields", async () => {
    const first = await app.json("PUT", "/api/init/config", { idp_client_id: "abc", use_pkce: false });
    expect(first.status).toBe(200);
    expect(first.data.config).toEqual({ ...EMPTY, idp_client_id: "abc", use_pkce: false });
    const second = await app.json("PUT", "/api/init/config", { owner_team_id: "t1; t2 t3" });
    expect(second.data.config).toEqual({ ...EMPTY, idp_client_id: "abc", use_pkce: false, owner_team_id: "t1; t2 t3" });
    expect((await app.json("GET", "/api/init/config")).data).toEqual(second.data);
  });

  it("keeps idp_client_secret write-only: stored encrypted, answered as an empty string", async () => {
    const res = await app.json("PUT", "/api/init/config", { idp_client_secret: "s3cret-value" });
    expect(res.data.config.idp_client_secret).toBe("");
    expect((await app.json("GET", "/api/init/config")).data.config.idp_client_secret).toBe("");
    expect(await readIdpClientSecret(app.ctx)).toBe("s3cret-value");
    const [raw] = (await app.ctx.db.all(sql`SELECT value FROM settings WHERE key = 'app_config'`)) as { value: string }[];
    expect(raw?.value).not.toContain("s3cret-value");
  });

  it("leaves the secret alone when the field is absent and clears it with an empty string", async () => {
    await app.json("PUT", "/api/init/config", { idp_client_id: "abc2" });
    expect(await readIdpClientSecret(app.ctx)).toBe("s3cret-value");
    await app.json("PUT", "/api/init/config", { idp_client_secret: "" });
    expect(await readIdpClientSecret(app.ctx)).toBe("");
  });

  it("normalizes URLs and trims ids", async () => {
    const res = await app.json("PUT", "/api/init/config", {
      idp_base_url: " https://ID.example.com/ ",
      idp_redirect_uri: "https://app.example.com/cb?x=1",
      allowed_team_id: " team-1 ",
    });
    expect(res.data.config.idp_base_url).toBe("https://id.example.com");
    expect(res.data.config.idp_redirect_uri).toBe("https://app.example.com/cb?x=1");
    expect(res.data.config.allowed_team_id).toBe("team-1");
  });

  it.each([
    ["malformed JSON", '{"idp_client_id":'],
    ["a JSON array", "[1,2]"],
    ["a JSON string", '"x"'],
    ["a string for a boolean", { use_pkce: "true" }],
    ["a number for a string", { idp_client_id: 5 }],
    ["null for a string", { idp_base_url: null }],
    ["a non-URL base", { idp_base_url: "not a url" }],
    ["a javascript: redirect", { idp_redirect_uri: "javascript:alert(1)" }],
    ["credentials in the base URL", { idp_base_url: "https://u:p@id.example.com" }],
    ["a fragment in the redirect", { idp_redirect_uri: "https://app.example.com/cb#x" }],
    ["a query in the base URL", { idp_base_url: "https://id.example.com/?a=1" }],
    ["two ids in allowed_team_id", { allowed_team_id: "a b" }],
    ["a bad owner id", { owner_team_id: "ok, <script>" }],
    ["an over-long client id", { idp_client_id: "x".repeat(300) }],
  ])("answers 400 Invalid request for %s and changes nothing", async (_, body) => {
    const before = (await app.json("GET", "/api/init/config")).data;
    const res = await app.json("PUT", "/api/init/config", body);
    expect(res.status).toBe(400);
    expect(res.data).toEqual({ error: "Invalid request", code: "invalid_request" });
    expect((await app.json("GET", "/api/init/config")).data).toEqual(before);
  });

  it("ignores unknown keys", async () => {
    const res = await app.json("PUT", "/api/init/config", { surprise: 1, idp_client_id: "abc3" });
    expect(res.status).toBe(200);
    expect(res.data.config).not.toHaveProperty("surprise");
    expect(res.data.config.idp_client_id).toBe("abc3");
  });
});

describe("spec 3 section 3: setup", () => {
  let app: TestApp;
  beforeAll(async () => (app = await startApp()));
  afterAll(() => app.stop());

  it("without a body connects the workspace to this instance and sets the marker", async () => {
    const res = await app.json("POST", "/api/init/setup");
    expect(res.status).toBe(200);
    expect(res.data).toEqual({ ok: true });
    expect((await app.json("GET", "/api/init/status")).data).toEqual({ configured: true });
    const config = (await app.json("GET", "/api/init/config")).data.config;
    expect(config).toEqual({
      ...EMPTY,
      idp_base_url: app.url,
      idp_client_id: expect.any(String),
      idp_redirect_uri: `${app.url}/api/workspace/callback`,
    });
    // The built-in workspace app, registered on this instance: public with PKCE, verified, first-party (issue 42).
    const [client = {}] = (await app.ctx.db.all(sql`SELECT * FROM oauth_clients WHERE client_id = ${config.idp_client_id}`)) as Record<string, unknown>[];
    expect(client).toMatchObject({ name: "Cairn workspace", is_public: 1, is_verified: 1, first_party: 1, token_endpoint_auth_method: "none" });
    expect(JSON.parse(client.redirect_uris as string)).toEqual([{ uri: `${app.url}/api/workspace/callback`, match: "equals" }]);
    expect(JSON.parse(client.post_logout_redirect_uris as string)).toEqual([`${app.url}/`]);
  });

  it("a second setup answers 400 Already configured and changes nothing", async () => {
    const before = (await app.json("GET", "/api/init/config")).data;
    const res = await app.json("POST", "/api/init/setup", { config: { idp_client_id: "other" } });
    expect(res.status).toBe(400);
    expect(res.data).toEqual({ error: "Already configured", code: "already_configured" });
    expect((await app.json("GET", "/api/init/config")).data).toEqual(before);
  });

  it("after an operator deletes the marker, setup runs again, overwrites the config and loses no other data", async () => {
    const { db, clock } = app.ctx;
    await db
      .insert(settings)
      .values({ key: "unrelated", value: { keep: true }, updatedAt: clock.now() })
      .run();
    await db.delete(settings).where(eq(settings.key, "configured")).run();
    expect((await app.json("GET", "/api/init/status")).data).toEqual({ configured: false });
    const res = await app.json("POST", "/api/init/setup", {
      config: { idp_base_url: "https://id.example.com", idp_client_id: "ws", use_pkce: false, idp_client_secret: "x" },
    });
    expect(res.status).toBe(200);
    expect((await app.json("GET", "/api/init/config")).data.config).toEqual({
      ...EMPTY,
      idp_base_url: "https://id.example.com",
      idp_client_id: "ws",
      use_pkce: false,
      idp_redirect_uri: `${app.url}/api/workspace/callback`,
    });
    expect(await readIdpClientSecret(app.ctx)).toBe("x");
    const kept = await db.select().from(settings).where(eq(settings.key, "unrelated")).get();
    expect(kept?.value).toEqual({ keep: true });
  });

  it("an invalid setup config answers 400 Invalid request and leaves the instance unconfigured", async () => {
    const fresh = await startApp();
    try {
      const res = await fresh.json("POST", "/api/init/setup", { config: { idp_base_url: "ftp://x" } });
      expect(res.status).toBe(400);
      expect(res.data).toEqual({ error: "Invalid request", code: "invalid_request" });
      expect((await fresh.json("GET", "/api/init/status")).data).toEqual({ configured: false });
      expect((await fresh.json("POST", "/api/init/setup", { config: [] })).status).toBe(400);
    } finally {
      await fresh.stop();
    }
  });
});

describe("setup is one-use", () => {
  it("of 50 identical setups fired at once, exactly one succeeds", async () => {
    const app = await startApp();
    try {
      const answers = await Promise.all(Array.from({ length: 50 }, () => app.json("POST", "/api/init/setup", { config: {} })));
      expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
      expect(answers.filter((a) => a.status === 400 && a.data.error === "Already configured")).toHaveLength(49);
    } finally {
      await app.stop();
    }
  });
});

describe("ARCHITECTURE section 4: CAIRN_SETUP_TOKEN", () => {
  it("requires X-Setup-Token on setup when set", async () => {
    const app = await startApp({ env: { CAIRN_SETUP_TOKEN: "let-me-in-please" } });
    try {
      expect((await app.json("POST", "/api/init/setup")).status).toBe(401);
      const wrong = await app.json("POST", "/api/init/setup", undefined, { "x-setup-token": "nope" });
      expect(wrong).toMatchObject({ status: 401, data: { error: "Unauthorized" } });
      expect((await app.json("GET", "/api/init/status")).data.configured).toBe(false);
      const right = await app.json("POST", "/api/init/setup", undefined, { "x-setup-token": "let-me-in-please" });
      expect(right).toMatchObject({ status: 200, data: { ok: true } });
    } finally {
      await app.stop();
    }
  });
});

describe("spec 3 section 2.1: allowed_team_id locked by CAIRN_ALLOWED_TEAM_ID", () => {
  let app: TestApp;
  beforeAll(async () => (app = await startApp({ env: { CAIRN_ALLOWED_TEAM_ID: "locked-team" } })));
  afterAll(() => app.stop());

  it("shows the locked value and names the locked field", async () => {
    const res = await app.json("GET", "/api/init/config");
    expect(res.data.config.allowed_team_id).toBe("locked-team");
    expect(res.headers.get("cairn-locked-fields")).toBe("allowed_team_id");
  });

  it("accepts the same value back but refuses another, changing nothing", async () => {
    expect((await app.json("PUT", "/api/init/config", { allowed_team_id: "locked-team", idp_client_id: "a" })).status).toBe(200);
    const res = await app.json("PUT", "/api/init/config", { allowed_team_id: "other", idp_client_id: "b" });
    expect(res).toMatchObject({ status: 400, data: { error: "Invalid request" } });
    expect((await app.json("GET", "/api/init/config")).data.config).toMatchObject({ allowed_team_id: "locked-team", idp_client_id: "a" });
  });

  it("setup cannot unlock it either", async () => {
    expect((await app.json("POST", "/api/init/setup", { config: { allowed_team_id: "other" } })).status).toBe(400);
    expect((await app.json("POST", "/api/init/setup")).status).toBe(200);
    expect((await app.json("GET", "/api/init/config")).data.config.allowed_team_id).toBe("locked-team");
  });
});

describe("spec 3 section 4.1: PUT /api/init/config after initialization", () => {
  const users = {
    alice: { userId: "alice", isSiteAdmin: false, owns: ["team-b"] },
    bob: { userId: "bob", isSiteAdmin: false, owns: ["team-x"] },
    root: { userId: "root", isSiteAdmin: true, owns: [] },
    carol: { userId: "carol", isSiteAdmin: false, owns: ["allowed"] },
  };
  let app: TestApp;
  /** The built-in workspace client that setup registered (access fields alone still name this instance). */
  let builtIn: string;
  beforeAll(async () => {
    app = await startApp({ overrides: { configAccess: fakeAccess(users) } });
    await app.json("POST", "/api/init/setup", { config: { owner_team_id: "team-a, team-b;team-c", allowed_team_id: "allowed" } });
    builtIn = (await app.json("GET", "/api/init/config")).data.config.idp_client_id;
  });
  afterAll(() => app.stop());
  const put = (user: string | null, body: unknown) => app.json("PUT", "/api/init/config", body, user ? { "x-test-user": user } : {});

  it("answers 401 Unauthorized to a caller who is not signed in, changing nothing", async () => {
    const res = await put(null, { idp_client_id: "x" });
    expect(res).toMatchObject({ status: 401, data: { error: "Unauthorized" } });
    expect((await app.json("GET", "/api/init/config")).data.config.idp_client_id).toBe(builtIn);
  });

  it("answers 403 Forbidden to a signed-in user who owns none of the owner teams", async () => {
    expect(await put("bob", { idp_client_id: "x" })).toMatchObject({ status: 403, data: { error: "Forbidden" } });
    // owner_team_id is set, so owning the allowed team does not count
    expect(await put("carol", { idp_client_id: "x" })).toMatchObject({ status: 403, data: { error: "Forbidden" } });
    expect((await app.json("GET", "/api/init/config")).data.config.idp_client_id).toBe(builtIn);
  });

  it("lets an owner of any of several owner teams (comma, semicolon or space separated) change it", async () => {
    const res = await put("alice", { idp_client_id: "by-alice" });
    expect(res.status).toBe(200);
    expect(res.data.config.idp_client_id).toBe("by-alice");
  });

  it("falls back to the allowed team's owners when owner_team_id is empty", async () => {
    expect((await put("alice", { owner_team_id: "" })).status).toBe(200);
    expect((await put("alice", { idp_client_id: "again" })).status).toBe(403);
    expect((await put("carol", { idp_client_id: "by-carol" })).status).toBe(200);
  });

  it("falls back to site admins when neither team is set", async () => {
    expect((await put("carol", { allowed_team_id: "" })).status).toBe(200);
    expect((await put("carol", { idp_client_id: "x" })).status).toBe(403);
    expect((await put("root", { idp_client_id: "by-root" })).status).toBe(200);
  });

  it("still checks the body for an authorized caller", async () => {
    expect(await put("root", { use_pkce: "yes" })).toMatchObject({ status: 400, data: { error: "Invalid request" } });
  });

  it("keeps GET open to everyone", async () => {
    expect((await app.json("GET", "/api/init/config")).data.config.idp_client_id).toBe("by-root");
  });
});
