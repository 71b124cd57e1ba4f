import { describe, expect, it } from "bun:test";
import type { BusEvent } from "../../../src/context/event-bus.ts";
import type { RealtimeEventType } from "../../../src/contract/realtime.ts";
import type { TestApp } from "../../helpers/app.ts";
import { pgSkipReason } from "../../helpers/postgres.ts";
import { openSse } from "../../helpers/realtime-clients.ts";
import { waitFor } from "../../helpers/wait.ts";
import { teamOwner } from "../../helpers/workspace.ts";
import { wsSessionRowId } from "../../../src/workspace/session/session.service.ts";
import { pgOf, twoInstances } from "./two-contexts.fixture.ts";

/** What a subscriber of `teamId` on `app` hears: the events' ids in order, and the gaps it is told of. */
function listen(app: TestApp, teamId: string) {
  const got = { ids: [] as number[], events: [] as BusEvent[], gaps: 0 };
  const stop = app.ctx.bus.subscribe(
    teamId,
    (event) => {
      got.ids.push(event.id);
      got.events.push(event);
    },
    () => void got.gaps++,
  );
  return { got, stop };
}

const publish = (app: TestApp, teamId: string, data: unknown = {}, type: RealtimeEventType = "set:reordered") =>
  app.ctx.bus.publish({ type, teamId, setId: null, data });

const oneToN = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

/** Ends the listening connections of every app on the database (as a network cut would). */
const cutListening = async (app: TestApp) => {
  const { rows } = await pgOf(app).query(
    "select pg_terminate_backend(pid) as cut from pg_stat_activity where query like 'LISTEN%' and datname = current_database()",
  );
  expect(rows.length).toBeGreaterThan(0);
};

describe.skipIf(pgSkipReason !== null)("issue 46: realtime events across instances on one PostgreSQL database", () => {
  const apps = twoInstances();

  it("delivers an event published on A to a listener on B, and on A, under increasing ids", async () => {
    const onA = listen(apps.a, "team-one");
    const onB = listen(apps.b, "team-one");
    for (let i = 0; i < 5; i++) publish(apps.a, "team-one", { n: i });
    await waitFor(() => onB.got.ids.length === 5 && onA.got.ids.length === 5, { what: "five events on both" });
    expect(onB.got.ids).toEqual(oneToN(5));
    expect(onA.got.ids).toEqual(oneToN(5));
    expect(onB.got.events.map((e) => e.data)).toEqual([0, 1, 2, 3, 4].map((n) => ({ n })));
    expect(apps.b.ctx.bus.lastEventId("team-one")).toBe(5);
    expect(apps.b.ctx.bus.since("team-one", 2)?.map((e) => e.id)).toEqual([3, 4, 5]);
    onA.stop();
    onB.stop();
  });

  it("numbers concurrent publishes from A and B strictly increasing and without a gap, per team, as both see them", async () => {
    const teams = ["team-x", "team-y"];
    const listeners = teams.flatMap((team) => [listen(apps.a, team), listen(apps.b, team)]);
    const perTeam = 40;
    for (let i = 0; i < perTeam; i++) for (const team of teams) publish(i % 2 === 0 ? apps.a : apps.b, team, { i });
    await waitFor(() => listeners.every((l) => l.got.ids.length === perTeam), { what: "every event everywhere", timeoutMs: 10_000 });
    for (const { got } of listeners) expect(got.ids).toEqual(oneToN(perTeam));
    // Each event is the same under its id in both instances.
    const [xOnA, xOnB] = listeners;
    expect(xOnB?.got.events).toEqual(xOnA?.got.events as BusEvent[]);
    for (const l of listeners) l.stop();
  });

  it("delivers an event too long for NOTIFY in its place in the sequence", async () => {
    const onB = listen(apps.b, "team-long");
    publish(apps.a, "team-long", { n: 1 });
    publish(apps.a, "team-long", { items: "y".repeat(20_000) });
    publish(apps.b, "team-long", { n: 3 });
    await waitFor(() => onB.got.ids.length === 3, { what: "three events on B", timeoutMs: 5000 });
    expect(onB.got.ids).toEqual([1, 2, 3]);
    // A's two in the order A published them, B's anywhere between.
    const fromA = onB.got.events.filter((e) => (e.data as { n?: number }).n !== 3).map((e) => e.data as { n?: number; items?: string });
    expect(fromA[0]).toEqual({ n: 1 });
    expect(fromA[1]?.items).toBe("y".repeat(20_000));
    onB.stop();
  });

  it("settles once what A published has come back to A", async () => {
    for (let i = 0; i < 3; i++) publish(apps.a, "team-settled", { i });
    await apps.a.ctx.bus.settled();
    expect(apps.a.ctx.bus.lastEventId("team-settled")).toBe(3);
    expect(apps.a.ctx.bus.since("team-settled", 0)?.map((e) => e.data)).toEqual([{ i: 0 }, { i: 1 }, { i: 2 }]);
  });

  it("publishes nothing for a write that rolls back, and takes no id for it", async () => {
    const { withTx } = await import("../../../src/db/tx.ts");
    const onB = listen(apps.b, "team-rollback");
    await expect(
      withTx(apps.a.ctx.db, async () => {
        publish(apps.a, "team-rollback", { lost: true });
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    publish(apps.a, "team-rollback", { kept: true });
    await waitFor(() => onB.got.ids.length === 1, { what: "the kept event on B" });
    expect(onB.got.events.map((e) => [e.id, e.data])).toEqual([[1, { kept: true }]]);
    onB.stop();
  });

  it("tells a stream on B to refetch when B's listening connection drops, and goes on delivering once it is back", async () => {
    const { user, team } = await teamOwner(apps.b, "rita");
    const cookie = `cairn_ws=${user.browser.cookies.get("cairn_ws")}`;
    const sse = await openSse(`${apps.b.url}/api/realtime/sse?teamId=${encodeURIComponent(team.id)}`, { cookie });
    try {
      await sse.ready();
      publish(apps.a, team.id, { items: ["before"] });
      const before = await sse.until((f) => f.event === "set:reordered", 5000);
      const onB = listen(apps.b, team.id);
      await cutListening(apps.b);
      const refetch = await sse.until((f) => f.event === "refetch", 10_000);
      expect(Number(refetch.data.lastId)).toBeGreaterThanOrEqual(Number(before.id));
      // Nothing in B's buffer vouches for what may have been missed.
      expect(apps.b.ctx.bus.since(team.id, Number(before.id))).toBeNull();
      await waitFor(() => onB.got.gaps >= 2, { what: "the loss and the return of B's listening connection", timeoutMs: 20_000 });
      publish(apps.a, team.id, { items: ["after"] });
      const after = await sse.until((f) => f.event === "set:reordered" && f.data.data.items[0] === "after", 5000);
      expect(Number(after.id)).toBeGreaterThan(Number(before.id));
      onB.stop();
    } finally {
      sse.close();
    }
  });

  it("reads a stream's right again after B's listening connection drops: a right ended meanwhile ends the stream", async () => {
    const { user, team } = await teamOwner(apps.b, "sam");
    const session = user.browser.cookies.get("cairn_ws") as string;
    const sse = await openSse(`${apps.b.url}/api/realtime/sse?teamId=${encodeURIComponent(team.id)}`, { cookie: `cairn_ws=${session}` });
    try {
      await sse.ready();
      // Ended with no notice to anyone, as if its notice had been lost with the connection.
      await pgOf(apps.a).query(`UPDATE "ws_sessions" SET "revoked_at" = $1 WHERE "id" = $2`, [Date.now(), wsSessionRowId(session)]);
      await cutListening(apps.b);
      expect(await sse.ended(20_000)).toBe(true);
    } finally {
      sse.close();
    }
  });
});
