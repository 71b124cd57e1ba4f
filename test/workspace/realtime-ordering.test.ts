import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { sql } from "drizzle-orm";
import { durable, withTx } from "../../src/db/tx.ts";
import type { Sink } from "../../src/workspace/realtime/realtime-hub.ts";
import { wsSessionRowId } from "../../src/workspace/session/session.service.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import type { SignedUp } from "../helpers/identity.ts";
import { onPostgres } from "../helpers/pg-store.ts";
import { openSse, openWs } from "../helpers/realtime-clients.ts";
import { waitFor } from "../helpers/wait.ts";
import { teamOwner } from "../helpers/workspace.ts";

// Issue 46: a fan-out may wait for the database (its set's permissions), a stream's join reads
// the session before it is in the hub. Events must still reach each subscriber once, in the order
// of their ids, and a right that ends while a stream joins must end the stream.

let app: TestApp;
let alice: SignedUp;
let teamId: string;
let setId: string;
beforeAll(async () => {
  app = await startApp();
  ({
    user: alice,
    team: { id: teamId },
  } = await teamOwner(app, "alice"));
  setId = (await alice.browser.json("POST", `/api/teams/${teamId}/sets`, { name: "Busy" })).data.set.id;
});
afterAll(() => app.stop());

const cookie = () => alice.browser.cookies.get("cairn_ws") as string;
const hub = () => app.ctx.workspace.realtime;

/** A stream as the hub drives one: the events it was sent, and whether the hub closed it. */
function recordingSink() {
  const got = { ids: [] as number[], closed: false };
  const sink: Sink = {
    send: (wire) => void got.ids.push((JSON.parse(wire.json) as { id: number }).id),
    refetch: () => {},
    close: () => void (got.closed = true),
  };
  return { sink, got };
}

describe("issue 46: realtime events stay in order through awaited reads", () => {
  it("gives every subscriber the events of concurrent writes once each, in the order of their ids", async () => {
    const ws = openWs(`${app.url.replace("http", "ws")}/api/realtime/ws?teamId=${encodeURIComponent(teamId)}`, { cookie: `cairn_ws=${cookie()}` });
    const sse = await openSse(`${app.url}/api/realtime/sse?teamId=${encodeURIComponent(teamId)}`, { cookie: `cairn_ws=${cookie()}` });
    try {
      await ws.opened;
      await sse.ready();
      const titles = Array.from({ length: 25 }, (_, i) => `Concurrent ${i}`);
      const made = await Promise.all(titles.map((title) => alice.browser.json("POST", `/api/teams/${teamId}/sets/${setId}/todos`, { title })));
      expect(made.map((r) => r.status)).toEqual(titles.map(() => 201));
      // The last event of these writes (on PostgreSQL numbered at their commits, which need not come in the order they were sent).
      await app.ctx.bus.settled();
      const last = app.ctx.bus.lastEventId(teamId);
      await sse.until((f) => f.data?.id === last, 5000);
      await ws.until((m) => m.id === last, 5000);
      const viaSse = sse.frames.filter((f) => f.event === "todo:created").map((f) => f.data.id as number);
      const viaWs = ws.messages.filter((m) => m.type === "todo:created").map((m) => m.id as number);
      await sse.until((f) => f.data?.id === Math.max(...viaSse));
      expect(viaSse).toHaveLength(titles.length);
      expect(viaSse).toEqual([...viaSse].sort((a, b) => a - b));
      expect(new Set(viaSse).size).toBe(viaSse.length);
      expect(viaWs).toEqual(viaSse);
    } finally {
      ws.close();
      sse.close();
    }
  });

  it("keeps an event whose fan-out waits for its set's permissions ahead of a later one that needs none", async () => {
    expect(await durable(app.ctx.db)).toBe(true);
    const { sink, got } = recordingSink();
    const subscription = await hub().joinAsMember(wsSessionRowId(cookie()), teamId, null, sink);
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    // Another request's transaction is open: reads from outside it, the fan-out's included, wait for its end.
    const tx = withTx(app.ctx.db, () => held);
    try {
      const first = app.ctx.bus.lastEventId(teamId) + 1;
      app.ctx.bus.publish({ type: "todo:deleted", teamId, setId, data: { id: "gone" } });
      app.ctx.bus.publish({ type: "set:reordered", teamId, setId: null, data: { items: [] } });
      // The bus hands events to the hub on the next turns of the event loop.
      for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
      release();
      await tx;
      await waitFor(() => (got.ids.length >= 2 ? true : undefined), { what: "both events", timeoutMs: 3000 });
      expect(got.ids).toEqual([first, first + 1]);
    } finally {
      release();
      subscription?.leave();
    }
  });

  it("sends an event published while the stream reads its session, after what it missed and before later ones", async () => {
    const { sink, got } = recordingSink();
    const before = app.ctx.bus.lastEventId(teamId);
    const joining = hub().joinAsMember(wsSessionRowId(cookie()), teamId, null, sink);
    // Published before the join has put the stream in the hub: it must still get it.
    app.ctx.bus.publish({ type: "set:reordered", teamId, setId: null, data: { during: true } });
    const subscription = await joining;
    expect(subscription).not.toBeNull();
    try {
      app.ctx.bus.publish({ type: "set:reordered", teamId, setId: null, data: { after: true } });
      await waitFor(() => (got.ids.length >= 2 ? true : undefined), { what: "both events", timeoutMs: 3000 });
      expect(got.ids).toEqual([before + 1, before + 2]);
    } finally {
      subscription?.leave();
    }
  });

  it("does not let a stream in with a session whose rights ended while it was being read", async () => {
    // Nothing waiting for a sync: the rights change below is heard at once, as a commit's is.
    expect(await durable(app.ctx.db)).toBe(true);
    const { sink, got } = recordingSink();
    const id = wsSessionRowId(cookie());
    const end = () => hub().rightsChanged({ sessions: [id] });
    let joining!: Promise<unknown>;
    if (onPostgres) {
      // The read goes to the server and waits there (a lock held by another connection) while the session ends.
      const other = new Bun.SQL(app.ctx.config.databaseUrl as string, { max: 1 });
      try {
        await other.begin(async (tx) => {
          await tx`LOCK TABLE ws_sessions IN ACCESS EXCLUSIVE MODE`;
          joining = hub().joinAsMember(id, teamId, null, sink);
          await tx`UPDATE ws_sessions SET revoked_at = ${Date.now()} WHERE id = ${id}`;
          end();
        });
      } finally {
        await other.close();
      }
    } else {
      joining = hub().joinAsMember(id, teamId, null, sink);
      // The join has read the live session (SQLite runs a statement at once, before the call returns);
      // the session ends before the join goes on to the hub.
      const ended = app.ctx.db.run(sql`UPDATE ws_sessions SET revoked_at = ${Date.now()} WHERE id = ${id}`);
      end();
      await ended;
    }
    expect(await joining).toBeNull();
    expect(got.ids).toEqual([]);
  });
});
