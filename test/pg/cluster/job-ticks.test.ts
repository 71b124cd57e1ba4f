import { describe, expect, it } from "bun:test";
import { Cron } from "croner";
import { claimTick, ownsRun, scheduledTick } from "../../../src/jobs/job-ticks.ts";
import { SCHEDULE } from "../../../src/jobs/jobs.ts";
import { pgSkipReason } from "../../helpers/postgres.ts";
import { pgOf, twoInstances } from "./two-contexts.fixture.ts";

const at = (iso: string) => Date.parse(iso);

describe("a job's tick: the schedule's time, whenever the run started", () => {
  it("names one tick for runs started late or by a clock a little off", () => {
    const job = new Cron("*/10 * * * *", { ...SCHEDULE, paused: true });
    const daily = new Cron("17 3 * * *", { ...SCHEDULE, paused: true });
    try {
      const tick = at("2025-01-01T10:10:00.000Z");
      for (const started of ["2025-01-01T10:10:00.000Z", "2025-01-01T10:10:00.004Z", "2025-01-01T10:13:59.000Z"])
        expect(scheduledTick(job, new Date(started))).toBe(tick);
      expect(scheduledTick(job, new Date("2025-01-01T10:09:59.999Z"))).toBe(at("2025-01-01T10:00:00.000Z"));
      expect(scheduledTick(daily, new Date("2025-01-02T03:17:00.020Z"))).toBe(at("2025-01-02T03:17:00.000Z"));
    } finally {
      job.stop();
      daily.stop();
    }
  });
});

describe.skipIf(pgSkipReason !== null)("issue 46: a job's tick runs once across instances on one PostgreSQL database", () => {
  const apps = twoInstances();
  const claims = (name: string, tick: number, count: number) =>
    Promise.all(Array.from({ length: count }, (_, i) => claimTick(pgOf(i % 2 === 0 ? apps.a : apps.b), name, tick)));

  it("lets one of 50 concurrent claims of a first tick through, across A and B", async () => {
    const won = await claims("purge", at("2025-01-01T10:10:00.000Z"), 50);
    expect(won.filter(Boolean)).toHaveLength(1);
  });

  it("lets one of 50 through for each later tick, and none for a tick already run or older", async () => {
    expect((await claims("renew", at("2025-01-01T10:15:00.000Z"), 50)).filter(Boolean)).toHaveLength(1);
    expect((await claims("renew", at("2025-01-01T10:30:00.000Z"), 50)).filter(Boolean)).toHaveLength(1);
    expect((await claims("renew", at("2025-01-01T10:30:00.000Z"), 10)).filter(Boolean)).toHaveLength(0);
    expect((await claims("renew", at("2025-01-01T10:15:00.000Z"), 10)).filter(Boolean)).toHaveLength(0);
  });

  it("runs a job's run in one instance when A's and B's schedules start it at once", async () => {
    const ran: string[] = [];
    // Yearly: every start this year names the same tick, whenever it falls.
    const jobs = [apps.a, apps.b].map(
      (app, i) =>
        new Cron("0 0 1 1 *", { ...SCHEDULE, paused: true }, async (job: Cron) => {
          if (await ownsRun(app.ctx.db, "yearly", job)) ran.push(i === 0 ? "a" : "b");
        }),
    );
    try {
      await Promise.all(Array.from({ length: 50 }, (_, i) => (jobs[i % 2] as Cron).trigger()));
      expect(ran).toHaveLength(1);
    } finally {
      for (const job of jobs) job.stop();
    }
  });

  it("keeps each job's ticks apart", async () => {
    const tick = at("2025-01-01T11:00:00.000Z");
    expect([await claimTick(pgOf(apps.a), "digest", tick), await claimTick(pgOf(apps.b), "domains", tick)]).toEqual([true, true]);
  });
});
