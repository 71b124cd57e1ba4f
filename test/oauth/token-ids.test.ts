import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import fc from "fast-check";
import { applyMigrations } from "../../src/db/migrate.ts";
import { bundledMigrations } from "../../src/db/migrations.ts";
import { createTokenIds, looksLike, newToken, parseTokenKey, type TokenKind } from "../../src/oauth/tokens/token-key.ts";
import { sha256Hex } from "../../src/shared/crypto.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { signUp } from "../helpers/identity.ts";
import { runOnOtherConnection } from "../helpers/other-connection.ts";
import { onPostgres } from "../helpers/pg-store.ts";
import { tempDir } from "../helpers/temp.ts";
import { obtainTokensRaw, postForm, type RegisteredApp, startOAuthWorld, TOKEN, tokenRowId, withToken } from "./oauth.fixtures.ts";

/**
 * Tokens carry the id of their row (issue 12: `<kind><id>.<secret>`), so a new row is appended
 * rather than written at a random place in a hash index. The id travels sealed under a key of
 * the instance, so values do not tell how many tokens were issued. The secret still decides: only
 * its hash is stored, compared in constant time.
 */
const KINDS: TokenKind[] = ["access", "refresh", "machine"];
const INTROSPECT = "/api/oauth/introspect";
const REVOKE = "/api/oauth/revoke";
const ids = createTokenIds(randomBytes(32));
const LEGACY_TABLES = ["access_tokens", "refresh_tokens", "machine_access_tokens"];
const BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

describe("token values (property tests)", () => {
  it("a new token parses back to its kind, its id and its secret's hash, and looks like its own kind only", () => {
    fc.assert(
      fc.property(fc.constantFrom(...KINDS), fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), (kind, id) => {
        let hash = "";
        const token = newToken(ids, kind, (h) => {
          hash = h;
          return id;
        });
        expect(token).toMatch(/^[arm][A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}$/);
        expect(parseTokenKey(ids, token)).toEqual({ kind, id, hash });
        for (const other of KINDS) expect(looksLike(other, token)).toBe(other === kind);
      }),
    );
  });

  it("ids are sealed: consecutive ones share nothing visible, and another instance's key opens none of them", () => {
    const sealed = Array.from({ length: 200 }, (_, i) => ids.seal(i + 1));
    expect(new Set(sealed).size).toBe(200);
    expect([...sealed].sort()).not.toEqual(sealed);
    // No position of the 22 characters is the same across all of them, as a counter's high digits would be.
    for (let at = 0; at < 22; at++) expect(new Set(sealed.map((v) => v[at])).size).toBeGreaterThan(1);
    const other = createTokenIds(randomBytes(32));
    expect(sealed.map((v) => other.open(v)).filter((id) => id !== null)).toEqual([]);
  });

  it("any other string is refused without a throw, or is a bare legacy secret found by its hash", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 80 }), fc.stringMatching(/^[arm][A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}$/)), (value) => {
        const key = parseTokenKey(ids, value);
        if (key === null) return;
        // A made-up id opens (2^-64) essentially never: only legacy values get through.
        expect({ kind: key.kind, value: /^[A-Za-z0-9_-]{43}$/.test(value), hash: key.hash }).toEqual({ kind: "legacy", value: true, hash: sha256Hex(value) });
      }),
    );
    const secret = "s".repeat(43);
    const id = ids.seal(5);
    // The same 16 bytes spelled with the last character's 4 spare bits set: one value per id.
    const respelled = `${id.slice(0, 21)}${BASE64URL[BASE64URL.indexOf(id[21] as string) + 1]}`;
    expect(parseTokenKey(ids, `a${id}.${secret}`)).toMatchObject({ kind: "access", id: 5 });
    for (const bad of [
      `a.${secret}`,
      `a5.${secret}`,
      `a${respelled}.${secret}`,
      `a${"A".repeat(22)}.${secret}`,
      `x${id}.${secret}`,
      `A${id}.${secret}`,
      `a${id}.${secret}=`,
      `a${id}${secret}`,
      `a${id}.${secret.slice(1)}`,
      ` a${id}.${secret}`,
    ])
      expect(parseTokenKey(ids, bad)).toBeNull();
  });
});

describe("a token is its secret, not its id", () => {
  let app: TestApp;
  let rp: RegisteredApp;
  let tokens: { access_token: string; refresh_token?: string };
  beforeAll(async () => {
    const world = await startOAuthWorld();
    app = world.app;
    rp = world.rp;
    tokens = await obtainTokensRaw(app, world.user, rp, "openid profile offline_access");
  });
  afterAll(() => app.stop());
  const introspect = async (token: string) => (await postForm(app, INTROSPECT, { token }, { basic: [rp.client_id, rp.client_secret] })).data.active;
  /** The same row id with another secret of the right shape. */
  const forged = (token: string) => `${token.slice(0, token.indexOf(".") + 1)}${"A".repeat(43)}`;

  it("the right id with another secret is no token: inactive, 401 at userinfo, invalid_grant at the token endpoint", async () => {
    expect(await introspect(tokens.access_token)).toBe(true);
    expect(await introspect(forged(tokens.access_token))).toBe(false);
    expect((await withToken(app, forged(tokens.access_token))("GET", "/api/oauth/userinfo")).status).toBe(401);
    const refreshed = await postForm(
      app,
      TOKEN,
      { grant_type: "refresh_token", refresh_token: forged(tokens.refresh_token as string) },
      { basic: [rp.client_id, rp.client_secret] },
    );
    expect({ status: refreshed.status, error: refreshed.data.error }).toEqual({ status: 400, error: "invalid_grant" });
  });

  it("tokens whose grant was deleted (no cascade since 0024) are dead at once and purged at their expiry; the others stay", async () => {
    const { db } = app.ctx;
    const other = await obtainTokensRaw(app, await signUp(app, "bob"), rp, "openid offline_access");
    const [{ grant }] = (await db.all(sql`SELECT grant_id AS "grant" FROM access_tokens WHERE id = ${tokenRowId(app, other.access_token)}`)) as [
      { grant: string },
    ];
    await db.run(sql`DELETE FROM oauth_grants WHERE id = ${grant}`);
    expect(await introspect(other.access_token)).toBe(false);
    const rows = async () =>
      ((await db.all(sql`SELECT (SELECT count(*) FROM access_tokens) + (SELECT count(*) FROM refresh_tokens) AS n`)) as [{ n: number }])[0].n;
    const before = await rows();
    // Found by expiry alone (issue 43: a purge reads no more than it deletes); their expiry comes.
    expect((await app.ctx.purges.run(Date.now())).failures).toEqual([]);
    expect(await rows()).toBe(before);
    for (const table of ["access_tokens", "refresh_tokens"])
      await db.run(sql`UPDATE ${sql.identifier(table)} SET expires_at = ${Date.now() - 1} WHERE grant_id = ${grant}`);
    expect((await app.ctx.purges.run(Date.now())).failures).toEqual([]);
    expect(await rows()).toBe(before - 2);
    expect(await db.all(sql`SELECT count(*) AS n FROM access_tokens WHERE id = ${tokenRowId(app, other.access_token)}`)).toEqual([{ n: 0 }]);
    expect(await introspect(tokens.access_token)).toBe(true);
  });

  it("a token of one kind is not taken as another, even where the other kind has a row of that id", async () => {
    const refresh = tokens.refresh_token as string;
    // Swap the kind letters: same id and secret, other table.
    const asAccess = `a${refresh.slice(1)}`;
    const asRefresh = `r${tokens.access_token.slice(1)}`;
    expect((await withToken(app, refresh)("GET", "/api/oauth/userinfo")).status).toBe(401);
    // The access token's lookup is kept in memory now: its secret under another kind's letter still names nothing.
    expect(await introspect(tokens.access_token)).toBe(true);
    for (const letter of ["r", "m"]) expect(await introspect(`${letter}${tokens.access_token.slice(1)}`)).toBe(false);
    expect(await introspect(asAccess)).toBe(false);
    const swapped = await postForm(app, TOKEN, { grant_type: "refresh_token", refresh_token: asRefresh }, { basic: [rp.client_id, rp.client_secret] });
    expect(swapped.data.error).toBe("invalid_grant");
    // Neither refusal spent or ended anything.
    expect(await introspect(tokens.access_token)).toBe(true);
    expect(tokenRowId(app, tokens.access_token)).toBeGreaterThan(0);
  });
});

describe("tokens issued before token ids (migration 0024) keep working after the upgrade", () => {
  const dataDir = tempDir();
  const SECRET = "legacy-client-secret-0123456789";
  const legacy = { access: "L".repeat(43), refresh: "R".repeat(43), machine: "M".repeat(43), revoked: "V".repeat(43) };
  let app: TestApp;
  const basic: [string, string] = ["legacy-client", SECRET];

  beforeAll(async () => {
    // The rows as the release before made them: tokens as bare secrets.
    const now = Date.now();
    const rows: [string, (string | number)[]][] = [];
    const seed = (statement: string, params: (string | number)[]) => rows.push([statement, params]);
    seed("INSERT INTO users (id, username, email, password_hash, role, created_at, updated_at) VALUES ('u1', 'old', 'old@example.com', 'x', 'admin', ?, ?)", [
      now,
      now,
    ]);
    seed(
      `INSERT INTO oauth_clients (client_id, owner_user_id, name, secret_hash, is_public, redirect_uris, post_logout_redirect_uris, grant_types,
        token_endpoint_auth_method, id_token_signed_response_alg, oidc_fields, scopes, client_credentials_scopes, created_at, updated_at)
       VALUES ('legacy-client', 'u1', 'Old app', ?, 0, '[{"uri":"https://rp.example.com/cb"}]', '[]', '["authorization_code","refresh_token","client_credentials"]',
        'client_secret_basic', 'ES256', '[]', '["openid","profile","offline_access"]', '["jobs:run"]', ?, ?)`,
      [sha256Hex(SECRET), now, now],
    );
    seed(
      `INSERT INTO oauth_grants (id, client_id, user_id, scopes, auth_time, amr, acr, created_at, refresh_expires_at)
       VALUES ('g1', 'legacy-client', 'u1', '["openid","profile","offline_access"]', ?, '["pwd"]', 'pwd', ?, ?)`,
      [Math.floor(now / 1000), now, now + 86_400_000],
    );
    const access =
      "INSERT INTO access_tokens (token_hash, grant_id, client_id, user_id, scopes, created_at, expires_at) VALUES (?, 'g1', 'legacy-client', 'u1', '[\"openid\",\"profile\"]', ?, ?)";
    seed(access, [sha256Hex(legacy.access), now, now + 3_600_000]);
    seed(access, [sha256Hex(legacy.revoked), now, now + 3_600_000]);
    seed("INSERT INTO refresh_tokens (token_hash, grant_id, client_id, created_at, expires_at) VALUES (?, 'g1', 'legacy-client', ?, ?)", [
      sha256Hex(legacy.refresh),
      now,
      now + 86_400_000,
    ]);
    seed("INSERT INTO machine_access_tokens (token_hash, client_id, scopes, created_at, expires_at) VALUES (?, 'legacy-client', '[\"jobs:run\"]', ?, ?)", [
      sha256Hex(legacy.machine),
      now,
      now + 3_600_000,
    ]);
    if (onPostgres) {
      // PostgreSQL starts after migration 0024: such rows reach it marked legacy, copied from an
      // upgraded file by `cairn migrate-to-postgres`.
      app = await startApp({ dataDir });
      for (const [statement, params] of rows) await runOnOtherConnection(app, statement, params);
      for (const table of LEGACY_TABLES) await runOnOtherConnection(app, `UPDATE ${table} SET legacy = 1`);
      return;
    }
    // The file as the release before made it: migrations up to 0023.
    const file = new Database(join(dataDir, "cairn.db"), { create: true });
    file.run("PRAGMA journal_mode = WAL");
    applyMigrations(
      file,
      bundledMigrations().filter((m) => m.tag < "0024"),
    );
    for (const [statement, params] of rows) file.run(statement, params);
    file.close();
    app = await startApp({ dataDir }); // applies 0024
  });
  afterAll(() => app.stop());
  const introspect = async (token: string) => (await postForm(app, INTROSPECT, { token }, { basic })).data;

  // Migration 0024 runs on the SQLite file only.
  it.skipIf(onPostgres)("the migration keeps every row, marked legacy", async () => {
    const count = async (table: string) => (await app.ctx.db.all(sql`SELECT count(*) AS n, sum(legacy) AS legacy FROM ${sql.identifier(table)}`))[0];
    expect(await count("access_tokens")).toEqual({ n: 2, legacy: 2 });
    expect(await count("refresh_tokens")).toEqual({ n: 1, legacy: 1 });
    expect(await count("machine_access_tokens")).toEqual({ n: 1, legacy: 1 });
  });

  it("an old access token introspects active and serves userinfo; an old machine token introspects active", async () => {
    expect(await introspect(legacy.access)).toMatchObject({ active: true, client_id: "legacy-client", sub: "u1" });
    expect((await withToken(app, legacy.access)("GET", "/api/oauth/userinfo")).data.sub).toBe("u1");
    expect(await introspect(legacy.machine)).toMatchObject({ active: true, client_id: "legacy-client", scope: "jobs:run" });
  });

  it("an old access token can be revoked", async () => {
    expect((await postForm(app, REVOKE, { token: legacy.revoked }, { basic })).status).toBe(200);
    expect((await introspect(legacy.revoked)).active).toBe(false);
    expect((await introspect(legacy.access)).active).toBe(true);
  });

  it("an old refresh token rotates once into a token with an id; presented again it ends the grant", async () => {
    const refresh = (token: string) => postForm(app, TOKEN, { grant_type: "refresh_token", refresh_token: token }, { basic });
    const first = await refresh(legacy.refresh);
    expect(first.status).toBe(200);
    expect(first.data.refresh_token).toMatch(/^r[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}$/);
    expect(first.data.access_token).toMatch(/^a[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}$/);
    expect((await withToken(app, first.data.access_token)("GET", "/api/oauth/userinfo")).status).toBe(200);
    const replay = await refresh(legacy.refresh);
    expect({ status: replay.status, error: replay.data.error }).toEqual({ status: 400, error: "invalid_grant" });
    expect((await introspect(first.data.access_token)).active).toBe(false);
    expect((await introspect(legacy.access)).active).toBe(false);
  });
});
