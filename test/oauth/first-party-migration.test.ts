import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { join } from "node:path";
import { applyMigrations } from "../../src/db/migrate.ts";
import { bundledMigrations } from "../../src/db/migrations.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { onPostgres } from "../helpers/pg-store.ts";
import { signUp } from "../helpers/identity.ts";
import { tempDir } from "../helpers/temp.ts";
import { authorizePath, pkce, visit } from "./oauth.fixtures.ts";

// The workspace app as setup registered it before issue 42: no owner, no registration token, verified.
const OLD_CALLBACK = "http://localhost:3000/api/workspace/callback";

// A data migration of the SQLite file's history: PostgreSQL starts at a baseline that has it (migrations-pg).
describe.skipIf(onPostgres)("migration 0030: the workspace app already in the database becomes first-party", () => {
  const dataDir = tempDir();
  let app: TestApp;

  beforeAll(async () => {
    const db = new Database(join(dataDir, "cairn.db"), { create: true });
    db.run("PRAGMA journal_mode = WAL");
    applyMigrations(
      db,
      bundledMigrations().filter((m) => m.tag < "0030"),
    );
    const now = Date.now();
    db.run("INSERT INTO users (id, username, email, password_hash, role, created_at, updated_at) VALUES ('u1', 'old', 'old@example.com', 'x', 'admin', ?, ?)", [
      now,
      now,
    ]);
    const insert = `INSERT INTO oauth_clients (client_id, owner_user_id, name, is_public, redirect_uris, post_logout_redirect_uris, grant_types,
        token_endpoint_auth_method, id_token_signed_response_alg, oidc_fields, scopes, is_verified, registration_token_hash, created_at, updated_at)
       VALUES (?, ?, ?, 1, ?, '[]', '["authorization_code","refresh_token"]', 'none', 'ML-DSA-65', '["teams"]', '["openid","profile","email","offline_access","teams:read"]', ?, ?, ?, ?)`;
    db.run(insert, ["old-workspace", null, "Cairn workspace", JSON.stringify([{ uri: OLD_CALLBACK, match: "equals" }]), 1, null, now, now]);
    // Neither an owner's app nor a dynamically registered one is the instance's own.
    db.run(insert, ["owned", "u1", "Cairn workspace", JSON.stringify([{ uri: OLD_CALLBACK, match: "equals" }]), 1, null, now, now]);
    db.run(insert, ["dynamic", null, "Cairn workspace", JSON.stringify([{ uri: OLD_CALLBACK, match: "equals" }]), 0, "hash", now, now]);
    db.close();
    app = await startApp({ dataDir }); // applies 0030
  });
  afterAll(() => app.stop());

  const row = (id: string) => app.ctx.oauth.clients.find(id);

  it("marks only the instance's own client first-party, with the signed-out home as its post-logout redirect URI", async () => {
    expect(await row("old-workspace")).toMatchObject({ firstParty: true, isVerified: true, postLogoutRedirectUris: ["http://localhost:3000/"] });
    expect(await row("owned")).toMatchObject({ firstParty: false, postLogoutRedirectUris: [] });
    expect(await row("dynamic")).toMatchObject({ firstParty: false, postLogoutRedirectUris: [] });
  });

  it("the upgraded workspace app gets its code without asking for consent", async () => {
    const user = await signUp(app, "newcomer");
    const { challenge } = await pkce();
    const params = {
      client_id: "old-workspace",
      redirect_uri: OLD_CALLBACK,
      response_type: "code",
      scope: "openid",
      code_challenge: challenge,
      code_challenge_method: "S256",
    };
    expect((await visit(user, authorizePath(params))).location).toStartWith(`${OLD_CALLBACK}?code=`);
  });
});
