import { afterAll, beforeAll } from "bun:test";
import { type PgClient, type PgOptions, openPostgres } from "../../../src/db/pg/client.ts";
import { type PgCluster, startPostgres } from "../../helpers/postgres.ts";

/**
 * This file's cluster and one database in it, started before its tests and removed after them;
 * `open` makes clients that are closed after the tests too. Call at the top of a
 * `describe.skipIf(pgSkipReason !== null)` block.
 */
export function usePostgres() {
  const clients: PgClient[] = [];
  const state = { cluster: null as unknown as PgCluster, url: "" };
  beforeAll(async () => {
    state.cluster = (await startPostgres())!;
    state.url = await state.cluster.createDatabase();
  });
  afterAll(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
    await state.cluster?.close();
  });
  return {
    get cluster() {
      return state.cluster;
    },
    get url() {
      return state.url;
    },
    open(options?: PgOptions, url = state.url): PgClient {
      const client = openPostgres(url, options);
      clients.push(client);
      return client;
    },
  };
}

/** The error `promise` rejects with, or null when it resolves. */
export const failure = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => null,
    (error: unknown) => error,
  );
