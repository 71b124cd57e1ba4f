import { afterAll, beforeAll } from "bun:test";
import type { PgClient } from "../../../src/db/pg/client.ts";
import type { PostgresStore } from "../../../src/db/pg/open.ts";
import { startApp, type TestApp } from "../../helpers/app.ts";
import { freshPostgresUrl, TEST_PG_SECRET } from "../../helpers/pg-store.ts";

/**
 * Two instances of Cairn on one PostgreSQL database, as two app contexts of this test process
 * (each its own pool, listening connection and in-memory state), started before the file's
 * tests and stopped after them. Call at the top of a `describe.skipIf(pgSkipReason !== null)`.
 */
export function twoInstances() {
  const state = { a: null as unknown as TestApp, b: null as unknown as TestApp, url: "" };
  beforeAll(async () => {
    state.url = await freshPostgresUrl();
    const env = { CAIRN_DATABASE_URL: state.url, CAIRN_SECRET: TEST_PG_SECRET };
    state.a = await startApp({ env });
    state.b = await startApp({ env });
  });
  afterAll(async () => {
    await Promise.all([state.a?.stop(), state.b?.stop()]);
  });
  return state;
}

/** The PostgreSQL client under an app's context. */
export const pgOf = (app: TestApp): PgClient => (app.ctx.db as PostgresStore).$pg;
