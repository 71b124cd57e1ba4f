import { describe, expect, it } from "bun:test";
import { workerCluster } from "../../../src/context/cluster.ts";
import { listenRelay, MAX_INLINE_BYTES, pgCluster } from "../../../src/context/pg-cluster.ts";
import { openPostgres } from "../../../src/db/pg/client.ts";
import { systemClock } from "../../../src/shared/clock.ts";
import { CLUSTER_TOPICS } from "../../../src/shared/cluster-topics.ts";
import { pgSkipReason } from "../../helpers/postgres.ts";
import { waitFor } from "../../helpers/wait.ts";
import { twoInstances } from "./two-contexts.fixture.ts";

const { svgForget, docsForgetLocalTrees, mailWake, metricsReport, realtimeRights } = CLUSTER_TOPICS;

describe.skipIf(pgSkipReason !== null)("issue 46: cluster topics between instances on one PostgreSQL database", () => {
  const apps = twoInstances();

  /** What `topic`'s handler hears in each app from here on (the app's own handler is set aside for the test). */
  const heard = (topic: typeof svgForget | typeof docsForgetLocalTrees | typeof mailWake | typeof metricsReport) => {
    const got = { a: [] as unknown[], b: [] as unknown[] };
    apps.a.ctx.cluster.on(topic, (payload) => void got.a.push(payload));
    apps.b.ctx.cluster.on(topic, (payload) => void got.b.push(payload));
    return got;
  };

  it("runs a topic sent by A in B's handler, and not in A's own", async () => {
    const got = heard(docsForgetLocalTrees);
    apps.a.ctx.cluster.tellOthers(docsForgetLocalTrees, "from a");
    await waitFor(() => got.b.length === 1, { what: "B's handler" });
    // B's answer reaches A after A's own notice (one channel, in order): A has passed over its own by then.
    apps.b.ctx.cluster.tellOthers(docsForgetLocalTrees, "from b");
    await waitFor(() => got.a.length === 1, { what: "A's handler" });
    expect(got).toEqual({ a: ["from b"], b: ["from a"] });
  });

  it("carries a notice too long for NOTIFY whole, in order with the short ones around it", async () => {
    const got = heard(docsForgetLocalTrees);
    const long = { sessions: Array.from({ length: 600 }, (_, i) => `session-${i}-${"x".repeat(20)}`) };
    expect(JSON.stringify(long).length).toBeGreaterThan(MAX_INLINE_BYTES);
    apps.a.ctx.cluster.tellOthers(docsForgetLocalTrees, "before");
    apps.a.ctx.cluster.tellOthers(docsForgetLocalTrees, long);
    apps.a.ctx.cluster.tellOthers(docsForgetLocalTrees, "after");
    await waitFor(() => got.b.length === 3, { what: "the three notices at B", timeoutMs: 5000 });
    expect(got.b).toEqual(["before", long, "after"]);
  });

  it("wakes the other instance's mail sender: tellPrimary reaches every instance's primary", async () => {
    const got = heard(mailWake);
    apps.a.ctx.cluster.tellPrimary(mailWake, null);
    await waitFor(() => got.b.length === 1, { what: "B's wake-up" });
    // Alone, A is its own primary: the wake-up ran there at once, and once.
    expect(got.a).toEqual([null]);
  });

  it("keeps the metrics topics within the instance", async () => {
    const metrics = heard(metricsReport);
    const marker = heard(docsForgetLocalTrees);
    apps.a.ctx.cluster.tellOthers(metricsReport, { id: 1 });
    apps.a.ctx.cluster.tellOthers(docsForgetLocalTrees, "marker");
    await waitFor(() => marker.b.length === 1, { what: "the marker at B" });
    expect(metrics.b).toEqual([]);
  });

  it("drops a share link's images in B's cache when A changes the link", async () => {
    const now = Date.now();
    apps.b.ctx.workspace.svgImages.store("link-1|badge|[]", "link-1", "<svg/>", now);
    apps.b.ctx.workspace.svgImages.store("link-2|badge|[]", "link-2", "<svg/>", now);
    apps.a.ctx.workspace.svgImages.forgetLink("link-1");
    await waitFor(() => apps.b.ctx.workspace.svgImages.get("link-1|badge|[]", now) === undefined, { what: "B's cache to drop link-1" });
    expect(apps.b.ctx.workspace.svgImages.get("link-2|badge|[]", now)).toBe("<svg/>");
  });

  it("gives a worker the notices for every process, not those for primaries", async () => {
    const pg = openPostgres(apps.url);
    try {
      const worker = await pgCluster(
        pg,
        workerCluster(() => {}),
        listenRelay(),
        { clock: systemClock, onError: () => {} },
      );
      const got: string[] = [];
      worker.on(mailWake, () => void got.push("wake"));
      worker.on(realtimeRights, (change) => void got.push(JSON.stringify(change)));
      apps.a.ctx.cluster.tellPrimary(mailWake, null);
      apps.a.ctx.cluster.tellOthers(realtimeRights, { sessions: ["s1"] });
      await waitFor(() => got.length > 0, { what: "the worker's notice" });
      expect(got).toEqual(['{"sessions":["s1"]}']);
    } finally {
      await pg.close();
    }
  });
});
