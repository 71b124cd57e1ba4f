import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { decodeProtectedHeader } from "jose";
import { openPostgres } from "../../src/db/pg/client.ts";
import { withTx } from "../../src/db/tx.ts";
import { signJwt } from "../../src/keys/jwt-signer.ts";
import { sha256Hex } from "../../src/shared/crypto.ts";
import { cli } from "../helpers/cli.ts";
import { runOnOtherConnection } from "../helpers/other-connection.ts";
import { storeEnv } from "../helpers/pg-store.ts";
import { findActiveAccessToken } from "../../src/oauth/tokens/tokens.service.ts";
import { accessTokens } from "../../src/oauth/tokens/tokens.table.ts";
import { confidentialApp, obtainTokensRaw, postForm, type RegisteredApp, startOAuthWorld, tokenRowId, withToken } from "./oauth.fixtures.ts";

/**
 * Clients, signing keys and what access tokens resolve to are kept in memory (issue 12): every change must be seen by the very
 * next request, whoever made it. A second connection to the database stands for another worker
 * process, another instance, or a person with the sqlite3 shell or psql.
 */
let world: Awaited<ReturnType<typeof startOAuthWorld>>;
beforeAll(async () => {
  world = await startOAuthWorld();
});
afterAll(async () => {
  await world.app.stop();
});
const other = (statement: string, params: (string | number | null)[] = []) => runOnOtherConnection(world.app, statement, params);

class RolledBack extends Error {}

/** `statement` on another connection, in a transaction that rolls back instead of committing. */
async function rolledBackOnOther(statement: string, params: string[]): Promise<void> {
  const url = world.app.ctx.config.databaseUrl;
  const undo = (e: unknown) => {
    if (!(e instanceof RolledBack)) throw e;
  };
  if (url !== null) {
    const pg = openPostgres(url, { max: 1 });
    await pg
      .transaction(async (tx) => {
        await tx.query(statement, params);
        throw new RolledBack();
      })
      .catch(undo)
      .finally(() => pg.close());
    return;
  }
  const file = new Database(join(world.app.dataDir, "cairn.db"));
  try {
    file.run("PRAGMA busy_timeout = 5000");
    file.transaction(() => {
      file.run(statement, params);
      throw new RolledBack();
    })();
  } catch (e) {
    undo(e);
  } finally {
    file.close();
  }
}

const introspect = (rp: RegisteredApp, secret = rp.client_secret) =>
  postForm(world.app, "/api/oauth/introspect", { token: "none" }, { basic: [rp.client_id, secret] });

describe("clients in memory", () => {
  it("a secret changed by another connection is used at once; a rolled-back change changes nothing", async () => {
    const { rp } = world;
    expect((await introspect(rp)).status).toBe(200); // cached now
    await other("UPDATE oauth_clients SET secret_hash = ? WHERE client_id = ?", [sha256Hex("changed by hand"), rp.client_id]);
    expect((await introspect(rp)).status).toBe(401);
    expect((await introspect(rp, "changed by hand")).status).toBe(200);

    await rolledBackOnOther("UPDATE oauth_clients SET secret_hash = ? WHERE client_id = ?", [sha256Hex("never committed"), rp.client_id]);
    expect((await introspect(rp, "changed by hand")).status).toBe(200);
    expect((await introspect(rp, "never committed")).status).toBe(401);
  });

  it("a secret rotated through the API and a deleted client take effect on the next request", async () => {
    const { owner, rp } = world;
    const rotated = await owner.bearer("POST", `/api/oauth/me/clients/${rp.client_id}/secret`);
    expect(rotated.status).toBe(200);
    expect((await introspect(rp, "changed by hand")).status).toBe(401);
    expect((await introspect(rp, rotated.data.client_secret)).status).toBe(200);
    await other("DELETE FROM oauth_clients WHERE client_id = ?", [rp.client_id]);
    expect((await introspect(rp, rotated.data.client_secret)).status).toBe(401);
  });
});

describe("signing keys in memory", () => {
  it("a rotation by `cairn keys rotate` while the server runs is published and signs from the next request", async () => {
    const { app } = world;
    const kids = async () => ((await app.json("GET", "/.well-known/jwks.json")).data.keys as { kid: string }[]).map((k) => k.kid);
    const before = await kids();
    const out = cli(["keys", "rotate"], { CAIRN_DATA: app.dataDir, ...(await storeEnv(app.dataDir, {})) });
    expect(out.code).toBe(0);
    const fresh = (/new signing keys: (\S+), (\S+);/.exec(out.stdout) ?? []).slice(1);
    expect(fresh).toHaveLength(2);
    // No clock moved: the JWKS and the signer follow the table, not a timer.
    expect((await kids()).sort()).toEqual([...before, ...fresh].sort());
    const token = await signJwt(app.ctx, "id_token", "ML-DSA-65", { sub: "x" });
    expect(fresh).toContain(decodeProtectedHeader(token).kid as string);
  });
});

describe("access tokens in memory", () => {
  // Its own app: the tests above delete theirs.
  let rp: RegisteredApp;
  beforeAll(async () => {
    rp = await confidentialApp(world.app, world.owner);
  });
  const describeToken = async (token: string) =>
    (await postForm(world.app, "/api/oauth/introspect", { token }, { basic: [rp.client_id, rp.client_secret] })).data as {
      active: boolean;
      sub?: string;
    };
  const fresh = async () => (await obtainTokensRaw(world.app, world.user, rp, "openid profile")).access_token;

  it("a grant revoked, a token deleted or a user disabled by another connection ends the token on the next request", async () => {
    const { user } = world;
    const revoked = await fresh();
    const deleted = await fresh();
    const disabled = await fresh();
    for (const token of [revoked, deleted, disabled]) expect((await describeToken(token)).active).toBe(true); // kept now
    expect((await withToken(world.app, disabled)("GET", "/api/oauth/userinfo")).status).toBe(200);

    await other("UPDATE oauth_grants SET revoked_at = ? WHERE id = (SELECT grant_id FROM access_tokens WHERE id = ?)", [
      Date.now(),
      tokenRowId(world.app, revoked),
    ]);
    expect((await describeToken(revoked)).active).toBe(false);
    await other("DELETE FROM access_tokens WHERE id = ?", [tokenRowId(world.app, deleted)]);
    expect((await describeToken(deleted)).active).toBe(false);
    expect((await describeToken(disabled)).active).toBe(true);

    await other("UPDATE users SET disabled_at = ? WHERE id = ?", [Date.now(), user.user.id]);
    expect((await describeToken(disabled)).active).toBe(false);
    expect((await withToken(world.app, disabled)("GET", "/api/oauth/userinfo")).status).toBe(401);
    await other("UPDATE users SET disabled_at = NULL WHERE id = ?", [user.user.id]);
    expect((await describeToken(disabled)).active).toBe(true);
  });

  it("a profile changed by another connection shows in the very next userinfo answer", async () => {
    const token = await fresh();
    const userinfo = withToken(world.app, token);
    expect((await userinfo("GET", "/api/oauth/userinfo")).status).toBe(200); // kept now
    await other("UPDATE users SET name = 'Renamed By Hand' WHERE id = ?", [world.user.user.id]);
    expect((await userinfo("GET", "/api/oauth/userinfo")).data.name).toBe("Renamed By Hand");
  });

  it("a token read inside a transaction that then rolls back is not kept", async () => {
    const token = await fresh();
    const { ctx } = world.app;
    const { id: _, ...row } = (await ctx.db
      .select()
      .from(accessTokens)
      .where(eq(accessTokens.id, tokenRowId(world.app, token)))
      .get()) as typeof accessTokens.$inferSelect;
    // A token from before token ids (migration 0024), so the legacy lookup by hash is the one tried.
    const ghost = "g".repeat(43);
    // The app's own connection, in a transaction: an insert is not a change the version
    // follows, so only the rule "nothing read inside a transaction is kept" stops the ghost
    // from outliving its rollback.
    const inTransaction = withTx(ctx.db, async () => {
      await ctx.db
        .insert(accessTokens)
        .values({ ...row, tokenHash: sha256Hex(ghost), legacy: true })
        .run();
      expect(await findActiveAccessToken(ctx, ghost)).not.toBeNull();
      throw new RolledBack();
    });
    await expect(inTransaction).rejects.toBeInstanceOf(RolledBack);
    expect(await findActiveAccessToken(ctx, ghost)).toBeNull();
    expect((await describeToken(ghost)).active).toBe(false);
  });
});
