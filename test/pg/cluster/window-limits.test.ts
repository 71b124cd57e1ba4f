import { describe, expect, it } from "bun:test";
import { windowLimiter } from "../../../src/access/window-limit.ts";
import { windowHitsPurge } from "../../../src/access/window-limit.pg.ts";
import { pgSkipReason } from "../../helpers/postgres.ts";
import { pgOf, twoInstances } from "./two-contexts.fixture.ts";

const LIMIT = { max: 3, windowMs: 60_000 };
const T0 = 1_700_000_000_000;

describe.skipIf(pgSkipReason !== null)("issue 46: window limits across instances on one PostgreSQL database", () => {
  const apps = twoInstances();

  it("counts hits on A and B in one window, with the answers of the in-memory limiter", async () => {
    const onA = apps.a.ctx.access.windows("test-shared", LIMIT);
    const onB = apps.b.ctx.access.windows("test-shared", LIMIT);
    const memory = windowLimiter(LIMIT);
    // Alternating instances, two keys, a window that ends and starts again, times not in order.
    const script: [string, number][] = [
      ["k1", T0],
      ["k1", T0 + 1_000],
      ["k2", T0 + 1_500],
      ["k1", T0 + 2_000],
      ["k1", T0 + 2_500],
      ["k1", T0 + 59_999],
      ["k1", T0 + 60_000],
      ["k1", T0 + 60_001],
      ["k2", T0 + 30_000],
      ["k2", T0 + 31_000],
      ["k2", T0 + 32_000],
      ["k2", T0 + 90_000],
    ];
    const answers: (number | null)[] = [];
    for (const [i, [key, now]] of script.entries()) answers.push(await (i % 2 === 0 ? onA : onB).hit(key, now));
    expect(answers).toEqual(script.map(([key, now]) => memory.hit(key, now)));
    expect(answers.slice(0, 6)).toEqual([null, null, null, null, 58, 1]);
  });

  it("keeps names apart", async () => {
    const first = apps.a.ctx.access.windows("test-name-1", { max: 1, windowMs: 60_000 });
    const second = apps.b.ctx.access.windows("test-name-2", { max: 1, windowMs: 60_000 });
    expect([await first.hit("k", T0), await second.hit("k", T0), await first.hit("k", T0)]).toEqual([null, null, 60]);
  });

  it("lets exactly `max` of 50 concurrent hits through across A and B", async () => {
    const max = 10;
    const limiters = [apps.a, apps.b].map((app) => app.ctx.access.windows("test-concurrent", { max, windowMs: 60_000 }));
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => (limiters[i % 2] as (typeof limiters)[0]).hit("k", T0)));
    expect(answers.filter((a) => a === null)).toHaveLength(max);
  });

  it("purges ended windows only", async () => {
    const limiter = apps.a.ctx.access.windows("test-purge", LIMIT);
    await limiter.hit("old", T0);
    await limiter.hit("live", T0 + 50_000);
    await windowHitsPurge(pgOf(apps.a))(T0 + 60_001, 100);
    const { rows } = await pgOf(apps.b).query<{ key: string }>(`SELECT "key" FROM "window_hits" WHERE "name" = 'test-purge' ORDER BY "key"`);
    expect(rows.map((r) => r.key)).toEqual(["live"]);
  });
});
