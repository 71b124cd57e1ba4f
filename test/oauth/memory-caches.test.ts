import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { join } from "node:path";
import { decodeProtectedHeader } from "jose";
import { signJwt } from "../../src/keys/jwt-signer.ts";
import { sha256Hex } from "../../src/shared/crypto.ts";
import { cli } from "../helpers/cli.ts";
import { postForm, type RegisteredApp, startOAuthWorld } from "./oauth.fixtures.ts";

/**
 * Clients and signing keys are kept in memory (issue 12): every change must be seen by the very
 * next request, whoever made it. A second connection to the file stands for another worker
 * process or a person with the sqlite3 shell.
 */
let world: Awaited<ReturnType<typeof startOAuthWorld>>;
let other: Database;
beforeAll(async () => {
  world = await startOAuthWorld();
  other = new Database(join(world.app.dataDir, "cairn.db"));
  other.run("PRAGMA busy_timeout = 5000");
});
afterAll(async () => {
  other.close();
  await world.app.stop();
});

const introspect = (rp: RegisteredApp, secret = rp.client_secret) =>
  postForm(world.app, "/api/oauth/introspect", { token: "none" }, { basic: [rp.client_id, secret] });

describe("clients in memory", () => {
  it("a secret changed by another connection is used at once; a rolled-back change changes nothing", async () => {
    const { rp } = world;
    expect((await introspect(rp)).status).toBe(200); // cached now
    other.run("UPDATE oauth_clients SET secret_hash = ? WHERE client_id = ?", [sha256Hex("changed by hand"), rp.client_id]);
    expect((await introspect(rp)).status).toBe(401);
    expect((await introspect(rp, "changed by hand")).status).toBe(200);

    other.run("BEGIN IMMEDIATE");
    other.run("UPDATE oauth_clients SET secret_hash = ? WHERE client_id = ?", [sha256Hex("never committed"), rp.client_id]);
    other.run("ROLLBACK");
    expect((await introspect(rp, "changed by hand")).status).toBe(200);
    expect((await introspect(rp, "never committed")).status).toBe(401);
  });

  it("a secret rotated through the API and a deleted client take effect on the next request", async () => {
    const { owner, rp } = world;
    const rotated = await owner.bearer("POST", `/api/oauth/me/clients/${rp.client_id}/secret`);
    expect(rotated.status).toBe(200);
    expect((await introspect(rp, "changed by hand")).status).toBe(401);
    expect((await introspect(rp, rotated.data.client_secret)).status).toBe(200);
    other.run("DELETE FROM oauth_clients WHERE client_id = ?", [rp.client_id]);
    expect((await introspect(rp, rotated.data.client_secret)).status).toBe(401);
  });
});

describe("signing keys in memory", () => {
  it("a rotation by `cairn keys rotate` while the server runs is published and signs from the next request", async () => {
    const { app } = world;
    const kids = async () => ((await app.json("GET", "/.well-known/jwks.json")).data.keys as { kid: string }[]).map((k) => k.kid);
    const before = await kids();
    const out = cli(["keys", "rotate"], { CAIRN_DATA: app.dataDir });
    expect(out.code).toBe(0);
    const fresh = (/new signing keys: (\S+), (\S+);/.exec(out.stdout) ?? []).slice(1);
    expect(fresh).toHaveLength(2);
    // No clock moved: the JWKS and the signer follow the table, not a timer.
    expect((await kids()).sort()).toEqual([...before, ...fresh].sort());
    const token = await signJwt(app.ctx, "id_token", "ML-DSA-65", { sub: "x" });
    expect(fresh).toContain(decodeProtectedHeader(token).kid as string);
  });
});
