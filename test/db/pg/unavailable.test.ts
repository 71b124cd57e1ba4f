import { describe, expect, it } from "bun:test";
import { DatabaseUnavailableError, sqlState } from "../../../src/db/pg/client.ts";
import { pgSkipReason } from "../../helpers/postgres.ts";
import { waitFor } from "../../helpers/wait.ts";
import { failure, usePostgres } from "./fixture.ts";

/** A TCP server that accepts and never says a word: a database host that hangs. */
function silentServer() {
  return Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
}

describe.skipIf(pgSkipReason !== null)("a database out of reach is DatabaseUnavailableError, and the client recovers", () => {
  const pg = usePostgres();

  it("fails queries, transactions and the probe while the server is stopped, and works again after it starts", async () => {
    const client = pg.open();
    expect(await client.ping()).toBe(true);
    await pg.cluster.stop("fast");
    try {
      expect(await failure(client.query("select 1"))).toBeInstanceOf(DatabaseUnavailableError);
      expect(await failure(client.transaction((tx) => tx.query("select 1")))).toBeInstanceOf(DatabaseUnavailableError);
      expect(await failure(client.listen("down", () => {}))).toBeInstanceOf(DatabaseUnavailableError);
      expect(await client.ping()).toBe(false);
    } finally {
      await pg.cluster.start();
    }
    expect((await client.query("select 1 as one")).rows).toEqual([{ one: 1 }]);
    expect(await client.ping()).toBe(true);
  });

  it("fails a query that was running when the server shut down (57P01)", async () => {
    const client = pg.open();
    const observer = pg.open();
    const sleeping = failure(client.query("select pg_sleep(60)"));
    await waitFor(
      async () => (await observer.query("select 1 from pg_stat_activity where query = 'select pg_sleep(60)' and state = 'active'")).rows.length > 0,
      { what: "the sleeping query", timeoutMs: 5000 },
    );
    await pg.cluster.stop("fast");
    await pg.cluster.start();
    const error = await sleeping;
    expect(error).toBeInstanceOf(DatabaseUnavailableError);
    expect(sqlState((error as Error).cause)).toBe("57P01");
    expect((await client.query("select 2 as two")).rows).toEqual([{ two: 2 }]);
  });

  it("fails a transaction whose connection is terminated midway, and nothing of it is committed", async () => {
    const client = pg.open();
    await client.query('create table "notes" ("id" bigint primary key)');
    const { promise: terminated, resolve } = Promise.withResolvers<void>();
    const attempt = failure(
      client.transaction(async (tx) => {
        await tx.query('insert into "notes" ("id") values (?)', [1]);
        await terminated;
        await tx.query('insert into "notes" ("id") values (?)', [2]);
      }),
    );
    await waitFor(
      async () => (await client.query("select pg_terminate_backend(pid) from pg_stat_activity where state = 'idle in transaction'")).rows.length > 0,
      {
        what: "the transaction's connection",
        timeoutMs: 5000,
      },
    );
    resolve();
    expect(await attempt).toBeInstanceOf(DatabaseUnavailableError);
    expect((await client.query('select "id" from "notes"')).rows).toEqual([]);
  });

  it("gives up on a server that accepts the connection and never answers, after the connect timeout", async () => {
    const server = silentServer();
    try {
      const client = pg.open({ connectTimeoutMs: 1000 }, `postgres://postgres@127.0.0.1:${server.port}/hangs`);
      const error = await failure(client.query("select 1"));
      expect(error).toBeInstanceOf(DatabaseUnavailableError);
      expect((error as Error).message).toContain("timeout");
      expect(await client.ping(500)).toBe(false);
    } finally {
      server.stop(true);
    }
  });

  it("fails with too many connections (53300) as unavailable", async () => {
    const admin = pg.open();
    await admin.query("create role limited login connection limit 1");
    const url = pg.url.replace("postgres@", "limited@");
    const holder = pg.open({}, url);
    const { promise: release, resolve } = Promise.withResolvers<void>();
    const held = holder.transaction(() => release);
    await waitFor(async () => (await admin.query("select 1 from pg_stat_activity where usename = 'limited'")).rows.length > 0, {
      what: "the limited role's connection",
      timeoutMs: 5000,
    });
    const error = await failure(pg.open({}, url).query("select 1"));
    resolve();
    await held;
    expect(error).toBeInstanceOf(DatabaseUnavailableError);
    expect(sqlState((error as Error).cause)).toBe("53300");
  });

  it("fails a transaction and a query that find no free connection in time, and runs them once one is free", async () => {
    const client = pg.open({ max: 1, acquireTimeoutMs: 200, queryTimeoutMs: 200 });
    const { promise: release, resolve } = Promise.withResolvers<void>();
    const held = client.transaction(async (tx) => {
      await tx.query("select 1");
      await release;
    });
    const waitingTx = await failure(client.transaction((tx) => tx.query("select 1")));
    const waitingQuery = await failure(client.query("select 1"));
    resolve();
    await held;
    expect(waitingTx).toBeInstanceOf(DatabaseUnavailableError);
    expect((waitingTx as Error).message).toBe("no database connection free within 200 ms");
    expect(waitingQuery).toBeInstanceOf(DatabaseUnavailableError);
    expect((waitingQuery as Error).message).toBe("no answer from the database within 200 ms");
    expect((await client.query("select 3 as three")).rows).toEqual([{ three: 3 }]);
  });
});
