import { describe, expect, it } from "bun:test";
import type { PgClient } from "../../../src/db/pg/client.ts";
import { pgSkipReason } from "../../helpers/postgres.ts";
import { waitFor } from "../../helpers/wait.ts";
import { usePostgres } from "./fixture.ts";

/** Collects what a channel delivers. */
async function listening(client: PgClient, channel: string) {
  const got: string[] = [];
  const subscription = await client.listen(channel, (payload) => got.push(payload));
  return { got, subscription };
}

/** Sends `marker` and waits for it: whatever was notified before it on the channel has arrived by then. */
async function drain(sender: PgClient, got: string[], channel: string, marker: string) {
  await sender.notify(channel, marker);
  await waitFor(() => got.includes(marker), { what: `the notification "${marker}"`, timeoutMs: 5000 });
}

describe.skipIf(pgSkipReason !== null)("LISTEN/NOTIFY across clients", () => {
  const pg = usePostgres();

  it("delivers a notification from one client to another, on its channel only", async () => {
    const [a, b] = [pg.open(), pg.open()];
    const events = await listening(a, "events");
    const other = await listening(a, "other");
    await b.notify("events", '{"team":1}');
    await drain(b, events.got, "events", "end");
    expect(events.got).toEqual(['{"team":1}', "end"]);
    expect(other.got).toEqual([]);
  });

  it("delivers what a transaction notifies when it commits, and nothing of one rolled back", async () => {
    const [a, b] = [pg.open(), pg.open()];
    const { got } = await listening(a, "tx");
    await b.transaction((tx) => tx.notify("tx", "committed"));
    await expect(
      b.transaction(async (tx) => {
        await tx.notify("tx", "rolled back");
        throw new Error("abort");
      }),
    ).rejects.toThrow("abort");
    await drain(b, got, "tx", "end");
    expect(got).toEqual(["committed", "end"]);
  });

  it("stops delivering after unlisten, while other channels go on", async () => {
    const [a, b] = [pg.open(), pg.open()];
    const gone = await listening(a, "gone");
    const kept = await listening(a, "kept");
    await gone.subscription.unlisten();
    await b.notify("gone", "late");
    await drain(b, kept.got, "kept", "end");
    expect(gone.got).toEqual([]);
  });

  it("reports a handler that throws and goes on delivering", async () => {
    const errors: unknown[] = [];
    const a = pg.open({ onNotifyError: (error) => errors.push(error) });
    const b = pg.open();
    const got: string[] = [];
    await a.listen("throws", (payload) => {
      got.push(payload);
      if (payload === "bad") throw new Error("handler failed");
    });
    await b.notify("throws", "bad");
    await drain(b, got, "throws", "end");
    expect(errors).toEqual([new Error("handler failed")]);
  });

  it("reports the listening connection's loss and recovery when the server restarts, and delivers again", async () => {
    const lost: Error[] = [];
    let restored = 0;
    const a = pg.open({ onListenLost: (error) => lost.push(error), onListenRestored: () => restored++ });
    const b = pg.open();
    const first = await listening(a, "restart-1");
    const second = await listening(a, "restart-2");
    await pg.cluster.stop("immediate");
    await waitFor(() => lost.length === 1, { what: "onListenLost", timeoutMs: 5000 });
    await pg.cluster.start();
    await waitFor(() => restored === 1, { what: "onListenRestored", timeoutMs: 20_000 });
    await drain(b, first.got, "restart-1", "after");
    await drain(b, second.got, "restart-2", "after");
    expect(lost).toHaveLength(1); // the failed reconnects while it was down are one loss
  });

  it("re-subscribes by itself when its connection alone is terminated", async () => {
    let lost = 0;
    let restored = 0;
    const a = pg.open({ onListenLost: () => lost++, onListenRestored: () => restored++ });
    const b = pg.open();
    const { got } = await listening(a, "terminated");
    const killed = await b.query(
      "select pg_terminate_backend(pid) as killed from pg_stat_activity where query like 'LISTEN%' and datname = current_database()",
    );
    expect(killed.rows.length).toBeGreaterThan(0);
    await waitFor(() => restored === 1, { what: "onListenRestored", timeoutMs: 20_000 });
    expect(lost).toBe(1);
    await drain(b, got, "terminated", "after");
  });
});
