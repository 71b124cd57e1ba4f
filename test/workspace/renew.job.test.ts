import { describe, expect, it } from "bun:test";
import { eq } from "drizzle-orm";
import { DEFAULT_TEAM_SETTINGS, writeTeamSettings } from "../../src/settings/team-settings/team-settings.repo.ts";
import { todoSets } from "../../src/workspace/storage/sets.table.ts";
import { todos } from "../../src/workspace/storage/todos.table.ts";
import { renewDueSets } from "../../src/workspace/renew/renew.job.ts";
import { startApp } from "../helpers/app.ts";
import { manualClock } from "../helpers/clock.ts";

const BERLIN_0630 = Date.UTC(2026, 5, 10, 4, 30); // 06:30 in Berlin (UTC+2 in June)

describe("spec 2 section 3: the auto-renew job", () => {
  it("resets completed todos once the local renew time has come, once per local date", async () => {
    const clock = manualClock(BERLIN_0630);
    const app = await startApp({ overrides: { clock } });
    try {
      const { db } = app.ctx;
      const set = {
        id: crypto.randomUUID(),
        teamId: "team-1",
        userId: "u1",
        name: "Chores",
        sortOrder: 1,
        autoRenew: true,
        renewTime: "07:00",
        timezone: "",
        createdAt: clock.now(),
      };
      await db.insert(todoSets).values(set).run();
      const other = { ...set, id: crypto.randomUUID(), name: "Manual", autoRenew: false };
      await db.insert(todoSets).values(other).run();
      await writeTeamSettings(app.ctx, "team-1", { ...DEFAULT_TEAM_SETTINGS, default_timezone: "Europe/Berlin" });
      const todo = (setId: string, title: string) => ({
        id: crypto.randomUUID(),
        setId,
        teamId: "team-1",
        userId: "u1",
        title,
        completed: true,
        sortOrder: 1,
        createdAt: clock.now(),
        updatedAt: clock.now(),
      });
      await db
        .insert(todos)
        .values([todo(set.id, "Dishes"), todo(other.id, "Stays done")])
        .run();
      const completed = async () => (await db.select({ title: todos.title }).from(todos).where(eq(todos.completed, true)).all()).map((t) => t.title).sort();

      expect(await renewDueSets(app.ctx)).toEqual([]); // 06:30: not yet
      clock.advance(45 * 60_000); // 07:15 local
      expect(await renewDueSets(app.ctx)).toEqual([set.id]);
      expect(await completed()).toEqual(["Stays done"]);
      expect((await db.select().from(todoSets).where(eq(todoSets.id, set.id)).get())?.lastRenewedAt).toBe(clock.now());

      await db.update(todos).set({ completed: true }).run();
      clock.advance(60 * 60_000); // later the same local day
      expect(await renewDueSets(app.ctx)).toEqual([]);
      clock.advance(24 * 3600_000); // next day, 08:15 local
      expect(await renewDueSets(app.ctx)).toEqual([set.id]);

      // Two runs at once (two instances' jobs, or one overlapping the next): the set is renewed by one.
      await db.update(todos).set({ completed: true }).run();
      clock.advance(24 * 3600_000);
      const both = await Promise.all([renewDueSets(app.ctx), renewDueSets(app.ctx)]);
      expect(both.flat()).toEqual([set.id]);
      expect(await completed()).toEqual(["Stays done"]);
    } finally {
      await app.stop();
    }
  });
});
