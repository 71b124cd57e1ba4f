import { describe, expect, it } from "bun:test";
import { isValidTimezone } from "../../src/settings/validation/settings-fields.ts";
import { effectiveTimezone, isRenewDue, localDateTime, type RenewSchedule } from "../../src/workspace/renew/renew.schedule.ts";

const at = (iso: string) => Date.parse(iso);
const QUARTER_HOUR = 15 * 60_000;
const schedule = (fields: Partial<RenewSchedule>): RenewSchedule => ({ autoRenew: true, renewTime: "00:00", timezone: "", lastRenewedAt: null, ...fields });

/** Runs the 15-minute job (spec 2 section 3) from `fromIso` to `toIso`; returns the local date and time of each renewal. */
function runJob(set: RenewSchedule, teamDefault: string, fromIso: string, toIso: string): { date: string; time: string }[] {
  const fired: { date: string; time: string }[] = [];
  const zone = effectiveTimezone(set.timezone, teamDefault);
  for (let now = at(fromIso); now < at(toIso); now += QUARTER_HOUR) {
    if (!isRenewDue(set, teamDefault, now)) continue;
    set.lastRenewedAt = new Date(now).toISOString();
    fired.push(localDateTime(now, zone));
  }
  return fired;
}

describe("spec 2 section 2.1: the effective timezone", () => {
  it("is the set's own when given", () => expect(effectiveTimezone("Asia/Kolkata", "Europe/Berlin")).toBe("Asia/Kolkata"));
  it("falls back to the team default_timezone when the set's is empty", () => expect(effectiveTimezone("", "Europe/Berlin")).toBe("Europe/Berlin"));
  it("falls back to UTC when both are empty", () => expect(effectiveTimezone("", "")).toBe("UTC"));
  it("skips a stored name the validator refuses rather than failing the job", () => {
    expect(isValidTimezone("Mars/Olympus_Mons")).toBe(false);
    expect(effectiveTimezone("Mars/Olympus_Mons", "America/New_York")).toBe("America/New_York");
    expect(effectiveTimezone("Mars/Olympus_Mons", "+05:30")).toBe("UTC");
  });
});

describe("localDateTime", () => {
  const cases: [string, string, string, string][] = [
    ["2026-01-15T10:59:00Z", "Pacific/Auckland", "2026-01-15", "23:59"],
    ["2026-01-15T11:00:00Z", "Pacific/Auckland", "2026-01-16", "00:00"],
    ["2026-06-01T02:30:00Z", "Asia/Kolkata", "2026-06-01", "08:00"],
    ["2026-06-01T18:29:00Z", "Asia/Kolkata", "2026-06-01", "23:59"],
    ["2026-06-01T03:59:00Z", "America/New_York", "2026-05-31", "23:59"],
    ["2026-01-01T00:00:00Z", "UTC", "2026-01-01", "00:00"],
  ];
  for (const [iso, zone, date, time] of cases) {
    it(`reads ${iso} in ${zone} as ${date} ${time}`, () => expect(localDateTime(at(iso), zone)).toEqual({ date, time }));
  }
});

describe("spec 2 section 3: auto-renew is due", () => {
  it("never while autoRenew is off", () => {
    expect(isRenewDue(schedule({ autoRenew: false }), "UTC", at("2026-06-01T12:00:00Z"))).toBe(false);
  });
  it("not before renewTime, and at renewTime exactly", () => {
    const set = schedule({ renewTime: "08:00", timezone: "Asia/Kolkata" });
    expect(isRenewDue(set, "UTC", at("2026-06-01T02:29:00Z"))).toBe(false);
    expect(isRenewDue(set, "UTC", at("2026-06-01T02:30:00Z"))).toBe(true);
  });
  it("not again on a local date it was already renewed for", () => {
    const set = schedule({ renewTime: "08:00", timezone: "Asia/Kolkata", lastRenewedAt: "2026-06-01T02:30:00.000Z" });
    expect(isRenewDue(set, "UTC", at("2026-06-01T18:29:00Z"))).toBe(false);
    expect(isRenewDue(set, "UTC", at("2026-06-02T02:30:00Z"))).toBe(true);
  });
  it("uses the team default_timezone when the set's is empty", () => {
    const set = schedule({ renewTime: "09:00" });
    expect(isRenewDue(set, "America/New_York", at("2026-06-01T12:59:00Z"))).toBe(false);
    expect(isRenewDue(set, "America/New_York", at("2026-06-01T13:00:00Z"))).toBe(true);
    expect(isRenewDue(set, "", at("2026-06-01T09:00:00Z"))).toBe(true);
  });
  it("compares local dates, not UTC dates", () => {
    // Same UTC date, different New York dates: due.
    const newYork = schedule({ renewTime: "00:30", timezone: "America/New_York", lastRenewedAt: "2026-06-01T01:00:00.000Z" });
    expect(isRenewDue(newYork, "UTC", at("2026-06-01T05:00:00Z"))).toBe(true);
    // Different UTC dates, same Auckland date: not due.
    const auckland = schedule({ renewTime: "00:15", timezone: "Pacific/Auckland", lastRenewedAt: "2026-01-15T11:30:00.000Z" });
    expect(isRenewDue(auckland, "UTC", at("2026-01-16T05:00:00Z"))).toBe(false);
  });
  it("never for a malformed renewTime", () => {
    expect(isRenewDue(schedule({ renewTime: "8:00" }), "UTC", at("2026-06-01T23:00:00Z"))).toBe(false);
  });
});

describe("spec 2 section 8: a job every 15 minutes renews at most once per local date", () => {
  // Each week starts at local midnight of 2026-06-01 in its zone.
  const weeks: [string, string, string, string][] = [
    ["UTC", "2026-06-01T00:00:00Z", "07:00", "07:00"],
    ["Pacific/Auckland", "2026-05-31T12:00:00Z", "06:45", "06:45"],
    ["Asia/Kolkata", "2026-05-31T18:30:00Z", "00:00", "00:00"],
    ["America/New_York", "2026-06-01T04:00:00Z", "23:45", "23:45"],
    ["Europe/Berlin", "2026-05-31T22:00:00Z", "12:10", "12:15"],
  ];
  const days = ["2026-06-01", "2026-06-02", "2026-06-03", "2026-06-04", "2026-06-05", "2026-06-06", "2026-06-07"];
  for (const [zone, fromIso, renewTime, firesAt] of weeks) {
    it(`fires once a day over a week in ${zone}, at the first run at or after ${renewTime}`, () => {
      const toIso = new Date(at(fromIso) + 7 * 86_400_000).toISOString();
      const fired = runJob(schedule({ renewTime, timezone: zone }), "UTC", fromIso, toIso);
      expect(fired).toEqual(days.map((date) => ({ date, time: firesAt })));
    });
  }
});

describe("daylight saving changes", () => {
  it("America/New_York 2026-03-08: a renewTime in the skipped hour fires once, at 03:00", () => {
    const set = schedule({ renewTime: "02:30", timezone: "America/New_York" });
    expect(isRenewDue(set, "UTC", at("2026-03-08T06:45:00Z"))).toBe(false); // 01:45 EST
    expect(isRenewDue(set, "UTC", at("2026-03-08T07:00:00Z"))).toBe(true); // 03:00 EDT
    const fired = runJob(set, "UTC", "2026-03-05T05:00:00Z", "2026-03-12T05:00:00Z");
    expect(fired.map((f) => f.date)).toEqual(["2026-03-05", "2026-03-06", "2026-03-07", "2026-03-08", "2026-03-09", "2026-03-10", "2026-03-11"]);
    expect(fired.map((f) => f.time)).toEqual(["02:30", "02:30", "02:30", "03:00", "02:30", "02:30", "02:30"]);
  });

  it("America/New_York 2026-11-01: a renewTime in the repeated hour fires once", () => {
    const set = schedule({ renewTime: "01:30", timezone: "America/New_York" });
    expect(isRenewDue(set, "UTC", at("2026-11-01T05:30:00Z"))).toBe(true); // 01:30 EDT
    set.lastRenewedAt = "2026-11-01T05:30:00.000Z";
    expect(isRenewDue(set, "UTC", at("2026-11-01T06:30:00Z"))).toBe(false); // 01:30 EST, same date
    set.lastRenewedAt = null;
    const fired = runJob(set, "UTC", "2026-10-29T04:00:00Z", "2026-11-05T05:00:00Z");
    expect(fired.map((f) => f.date)).toEqual(["2026-10-29", "2026-10-30", "2026-10-31", "2026-11-01", "2026-11-02", "2026-11-03", "2026-11-04"]);
    expect(fired.every((f) => f.time === "01:30")).toBe(true);
  });

  it("Europe/Berlin 2026-03-29: a renewTime in the skipped hour fires once, at 03:00", () => {
    const set = schedule({ renewTime: "02:15", timezone: "Europe/Berlin" });
    expect(isRenewDue(set, "UTC", at("2026-03-29T00:45:00Z"))).toBe(false); // 01:45 CET
    const fired = runJob(set, "UTC", "2026-03-26T00:00:00Z", "2026-04-02T00:00:00Z");
    expect(fired.map((f) => f.date)).toEqual(["2026-03-26", "2026-03-27", "2026-03-28", "2026-03-29", "2026-03-30", "2026-03-31", "2026-04-01"]);
    expect(fired[3]!.time).toBe("03:00");
  });

  it("Europe/Berlin 2026-10-25: a renewTime in the repeated hour fires once", () => {
    const set = schedule({ renewTime: "02:30", timezone: "Europe/Berlin" });
    const fired = runJob(set, "UTC", "2026-10-24T22:00:00Z", "2026-10-25T22:00:00Z");
    expect(fired).toEqual([{ date: "2026-10-25", time: "02:30" }]);
    expect(set.lastRenewedAt).toBe("2026-10-25T00:30:00.000Z"); // the first 02:30, CEST
  });
});
