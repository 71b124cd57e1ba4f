import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { addDays } from "../../src/contract/due-dates.ts";
import { localDateTime } from "../../src/workspace/renew/renew.schedule.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { manualClock } from "../helpers/clock.ts";
import { type SignedUp, signUp } from "../helpers/identity.ts";
import { teamOwner, workspaceSignIn } from "../helpers/workspace.ts";

// Due dates on todos (issue 42 item 10; ARCHITECTURE section 4b): set, cleared, refused, sorted,
// and the Due soon view, whose "overdue" is read in each set's time zone.

const HOUR = 3_600_000;
const clock = manualClock();
let app: TestApp;
let alice: SignedUp; // owner
let bob: SignedUp; // member
let teamId: string;

const api = (user: SignedUp, method: string, path: string, body?: unknown) => user.browser.json(method, `/api/teams/${teamId}${path}`, body);
async function newSet(name: string, timezone = ""): Promise<string> {
  const res = await api(alice, "POST", "/sets", { name });
  expect(res.status).toBe(201);
  if (timezone) expect((await api(alice, "PATCH", `/sets/${res.data.set.id}`, { timezone })).status).toBe(200);
  return res.data.set.id;
}
async function newTodo(setId: string, title: string, due: { dueDate?: string | null; dueTime?: string | null } = {}, user = alice) {
  const res = await api(user, "POST", `/sets/${setId}/todos`, { title, ...due });
  expect(res.status).toBe(201);
  return res.data.todo as { id: string; dueDate: string | null; dueTime: string | null; updatedAt: string };
}
const listed = async (setId: string, query = "") => (await api(alice, "GET", `/sets/${setId}/todos${query}`)).data.todos as any[];
const dueOf = async (setId: string, id: string) => {
  const todo = (await listed(setId)).find((t) => t.id === id);
  return { dueDate: todo.dueDate, dueTime: todo.dueTime, updatedAt: todo.updatedAt };
};
const dueSoon = async (user = alice) => {
  const res = await api(user, "GET", "/due-soon");
  expect(res.status).toBe(200);
  return res.data.todos as any[];
};

beforeAll(async () => {
  // Near the real time while signing in (the relying party checks ID tokens against it); the tests
  // then move the clock by less than the access token's hour.
  app = await startApp({ overrides: { clock } });
  ({
    user: alice,
    team: { id: teamId },
  } = await teamOwner(app, "alice"));
  bob = await signUp(app, "bob");
  expect((await alice.browser.json("POST", `/api/oauth/me/teams/${teamId}/members`, { username: "bob", role: "member" })).status).toBe(201);
  await workspaceSignIn(app, bob);
});
afterAll(() => app.stop());

describe("a todo's due date: set and cleared", () => {
  it("takes a date, or a date and a time, on create and answers them in the todo", async () => {
    const setId = await newSet("Bills");
    expect(await newTodo(setId, "Rent", { dueDate: "2026-12-05" })).toMatchObject({ dueDate: "2026-12-05", dueTime: null });
    expect(await newTodo(setId, "Call", { dueDate: "2026-12-05", dueTime: "09:30" })).toMatchObject({ dueDate: "2026-12-05", dueTime: "09:30" });
    expect(await newTodo(setId, "Someday")).toMatchObject({ dueDate: null, dueTime: null });
    expect((await listed(setId)).map((t) => [t.title, t.dueDate, t.dueTime])).toEqual([
      ["Rent", "2026-12-05", null],
      ["Call", "2026-12-05", "09:30"],
      ["Someday", null, null],
    ]);
  });

  it("PATCH sets, moves and clears: a null dueDate clears the time with it, a null dueTime only the time", async () => {
    const setId = await newSet("Chores");
    const { id } = await newTodo(setId, "Bins");
    const patch = async (body: object) => expect((await api(alice, "PATCH", `/todos/${id}`, body)).data).toEqual({ ok: true });
    await patch({ dueDate: "2026-12-07", dueTime: "07:00" });
    expect(await dueOf(setId, id)).toMatchObject({ dueDate: "2026-12-07", dueTime: "07:00" });
    await patch({ dueTime: "19:15" });
    expect(await dueOf(setId, id)).toMatchObject({ dueDate: "2026-12-07", dueTime: "19:15" });
    await patch({ dueDate: "2026-12-08" });
    expect(await dueOf(setId, id)).toMatchObject({ dueDate: "2026-12-08", dueTime: "19:15" });
    await patch({ dueTime: null });
    expect(await dueOf(setId, id)).toMatchObject({ dueDate: "2026-12-08", dueTime: null });
    await patch({ dueDate: "2026-12-09", dueTime: "08:00" });
    await patch({ dueDate: null });
    expect(await dueOf(setId, id)).toMatchObject({ dueDate: null, dueTime: null });
  });

  it("refuses bad dates and times with 400 in the spec's error shape, changing nothing", async () => {
    const setId = await newSet("Refusals");
    const { id } = await newTodo(setId, "Dentist", { dueDate: "2026-12-10", dueTime: "10:00" });
    const before = await dueOf(setId, id);
    const cases: [object, string, string][] = [
      [{ dueDate: "2026-02-30" }, "invalid_due_date", "dueDate must be a date as YYYY-MM-DD, or null"],
      [{ dueDate: "tomorrow" }, "invalid_due_date", "dueDate must be a date as YYYY-MM-DD, or null"],
      [{ dueDate: "2026-12-10T10:00:00Z" }, "invalid_due_date", "dueDate must be a date as YYYY-MM-DD, or null"],
      [{ dueDate: "" }, "invalid_due_date", "dueDate must be a date as YYYY-MM-DD, or null"],
      [{ dueTime: "24:00" }, "invalid_due_time", "dueTime must be a time as HH:MM (24-hour), or null"],
      [{ dueTime: "9:30" }, "invalid_due_time", "dueTime must be a time as HH:MM (24-hour), or null"],
      [{ dueDate: null, dueTime: "10:00" }, "due_time_without_date", "dueTime needs a dueDate"],
      // A valid title beside a bad date is not saved either: the request is one change.
      [{ title: "Dentist at nine", dueDate: "2026-13-01" }, "invalid_due_date", "dueDate must be a date as YYYY-MM-DD, or null"],
    ];
    for (const [body, code, error] of cases) {
      const res = await api(alice, "PATCH", `/todos/${id}`, body);
      expect({ body, status: res.status, data: res.data }).toEqual({ body, status: 400, data: { error, code } });
    }
    expect(await dueOf(setId, id)).toEqual(before);
    expect((await listed(setId)).find((t) => t.id === id).title).toBe("Dentist");
    // A time alone on a todo without a date, and a bad date on create, make nothing.
    const undated = await newTodo(setId, "Undated");
    expect((await api(alice, "PATCH", `/todos/${undated.id}`, { dueTime: "10:00" })).data.code).toBe("due_time_without_date");
    const refused = await api(alice, "POST", `/sets/${setId}/todos`, { title: "Never made", dueDate: "31/12/2026" });
    expect(refused.status).toBe(400);
    expect(refused.data).toEqual({ error: "dueDate must be a date as YYYY-MM-DD, or null", code: "invalid_due_date" });
    // Not a string at all: the schema's 400, never a 5xx.
    expect((await api(alice, "PATCH", `/todos/${id}`, { dueDate: 20261210 })).status).toBe(400);
    expect((await listed(setId)).map((t) => t.title)).toEqual(["Dentist", "Undated"]);
  });

  it("changing a due date is editing: a member may on their own todos, not on others'", async () => {
    const setId = await newSet("Shared chores");
    const mine = await newTodo(setId, "Bob's", {}, bob);
    const theirs = await newTodo(setId, "Alice's");
    expect((await api(bob, "PATCH", `/todos/${mine.id}`, { dueDate: "2026-12-11" })).status).toBe(200);
    const res = await api(bob, "PATCH", `/todos/${theirs.id}`, { dueDate: "2026-12-11" });
    expect(res.status).toBe(403);
    expect(res.data).toEqual({ error: "No permission to edit", code: "no_permission_to_edit" });
    expect((await dueOf(setId, theirs.id)).dueDate).toBeNull();
  });
});

describe("export then import keeps due dates", () => {
  for (const format of ["md", "json", "yaml"] as const)
    it(`${format}: every todo's due date and time, sub-todos included, and a title that ends like a due`, async () => {
      const setId = await newSet(`Export ${format}`);
      const rent = await newTodo(setId, "Rent", { dueDate: "2026-12-05" });
      await api(alice, "POST", `/sets/${setId}/todos`, { title: "Transfer", parentId: rent.id, dueDate: "2026-12-04", dueTime: "18:30" });
      await newTodo(setId, "Ask (due: friday)");
      await newTodo(setId, "Undated");
      const exported = await api(alice, "GET", `/sets/${setId}/export?format=${format}`);
      expect(exported.status).toBe(200);
      const imported = await api(alice, "POST", "/sets/import", { format, content: exported.data.content, setName: `Imported ${format}` });
      expect(imported.status).toBe(201);
      const dues = async (id: string) => (await listed(id)).map((t) => [t.title, t.dueDate, t.dueTime]);
      expect(await dues(imported.data.set.id)).toEqual(await dues(setId));
      expect(await dues(setId)).toEqual([
        ["Rent", "2026-12-05", null],
        ["Transfer", "2026-12-04", "18:30"],
        ["Ask (due: friday)", null, null],
        ["Undated", null, null],
      ]);
    });

  it("refuses an import whose due is not a real date or time, importing nothing", async () => {
    const setId = await newSet("Strict");
    const bad = [
      ["md", "- [ ] Rent (due: 2026-02-30)"],
      ["md", "- [ ] Rent (due: 2026-12-05 25:00)"],
      ["md", "- [ ] Rent (due:2026-12-05)"],
      ["json", JSON.stringify([{ title: "Rent", dueDate: "05/12/2026" }])],
      ["yaml", "- title: Rent\n  dueTime: '10:00'\n"],
    ];
    for (const [format, content] of bad) {
      const res = await api(alice, "POST", `/sets/${setId}/import`, { format, content });
      expect({ content, status: res.status, error: res.data.error }).toEqual({ content, status: 400, error: "Failed to parse import content" });
    }
    expect(await listed(setId)).toEqual([]);
  });
});

describe("GET .../todos?sort=due", () => {
  it("lists by due date and time, a date-only due before the timed ones of its day, undated last in their own order", async () => {
    const setId = await newSet("Sorted");
    await newTodo(setId, "Undated A");
    await newTodo(setId, "Late", { dueDate: "2027-01-02" });
    await newTodo(setId, "Noon", { dueDate: "2026-12-20", dueTime: "12:00" });
    const parent = await newTodo(setId, "Undated B");
    await api(alice, "POST", `/sets/${setId}/todos`, { title: "Sub, early", parentId: parent.id, dueDate: "2026-12-19" });
    await newTodo(setId, "All day", { dueDate: "2026-12-20" });
    await newTodo(setId, "Morning", { dueDate: "2026-12-20", dueTime: "08:30" });
    expect((await listed(setId, "?sort=due")).map((t) => t.title)).toEqual(["Sub, early", "All day", "Morning", "Noon", "Late", "Undated A", "Undated B"]);
    // The default order stays the set's own (by sortOrder, ties by creation); an unknown order is a 400.
    expect((await listed(setId)).map((t) => t.title)).toEqual(["Undated A", "Sub, early", "Late", "Noon", "Undated B", "All day", "Morning"]);
    expect((await api(alice, "GET", `/sets/${setId}/todos?sort=title`)).status).toBe(400);
  });
});

describe("GET /api/teams/:teamId/due-soon", () => {
  it("lists the open todos due within seven days and the overdue ones, in due order, from sets the caller may view", async () => {
    const today = localDateTime(clock.now(), "UTC").date;
    const day = (n: number) => addDays(today, n);
    const setId = await newSet("Week");
    const hidden = await newSet("Owners only");
    expect((await api(alice, "PUT", `/sets/${hidden}/permissions`, { member: { view_todos: false } })).status).toBe(200);
    const weekAgo = await newTodo(setId, "Week ago", { dueDate: day(-7) });
    const todayTodo = await newTodo(setId, "Today", { dueDate: today });
    const inSeven = await newTodo(setId, "In seven days", { dueDate: day(7), dueTime: "23:59" });
    await newTodo(setId, "In eight days", { dueDate: day(8) });
    await newTodo(setId, "Undated");
    const done = await newTodo(setId, "Done today", { dueDate: today });
    expect((await api(alice, "PATCH", `/todos/${done.id}`, { completed: true })).status).toBe(200);
    const secret = await newTodo(hidden, "Secret", { dueDate: day(1) });

    const forAlice = (await dueSoon()).filter((t) => [setId, hidden].includes(t.setId));
    expect(forAlice.map((t) => t.title)).toEqual(["Week ago", "Today", "Secret", "In seven days"]);
    expect(forAlice[0]).toEqual({
      id: weekAgo.id,
      setId,
      setName: "Week",
      parentId: null,
      title: "Week ago",
      completed: false,
      dueDate: day(-7),
      dueTime: null,
      overdue: true,
      timezone: "UTC",
    });
    expect(forAlice.map((t) => t.overdue)).toEqual([true, false, false, false]);
    expect(forAlice.find((t) => t.id === inSeven.id).dueTime).toBe("23:59");
    expect(forAlice.find((t) => t.id === todayTodo.id).overdue).toBe(false);
    // Bob may not view the hidden set: its todo is not his to see.
    expect((await dueSoon(bob)).map((t) => t.id)).not.toContain(secret.id);
    expect((await dueSoon(bob)).filter((t) => t.setId === setId).map((t) => t.title)).toEqual(["Week ago", "Today", "In seven days"]);
  });

  it("reads overdue in each set's time zone (the set's, else the team's default) as the clock passes local midnight", async () => {
    const start = clock.now();
    // The hour boundary nearest the real time is local midnight in `zone1` and local noon in `zone2`.
    const boundary = Math.round(start / HOUR) * HOUR;
    const hour = new Date(boundary).getUTCHours();
    const offset1 = hour <= 12 ? -hour : 24 - hour;
    const offset2 = offset1 - 12 >= -12 ? offset1 - 12 : offset1 + 12;
    const etc = (offset: number) => (offset === 0 ? "Etc/GMT" : `Etc/GMT${offset > 0 ? "-" : "+"}${Math.abs(offset)}`);
    const [zone1, zone2] = [etc(offset1), etc(offset2)];
    const before = boundary - 5 * 60_000;
    const after = boundary + 5 * 60_000;
    expect(localDateTime(after, zone1).time).toBe("00:05");
    expect(localDateTime(after, zone2).time).toBe("12:05");
    try {
      expect((await api(alice, "PATCH", "/settings", { default_timezone: zone2 })).status).toBe(200);
      const east = await newSet("Midnight side", zone1);
      const west = await newSet("Noon side (team default)");
      const lastDay1 = localDateTime(before, zone1).date;
      const today2 = localDateTime(after, zone2).date;
      await newTodo(east, "Ends at midnight", { dueDate: lastDay1 });
      await newTodo(east, "Eight days out", { dueDate: addDays(lastDay1, 8) });
      await newTodo(west, "All day there", { dueDate: today2 });
      await newTodo(west, "At noon there", { dueDate: today2, dueTime: "12:00" });
      const read = async () => {
        const rows = (await dueSoon()).filter((t) => t.setId === east || t.setId === west);
        return Object.fromEntries(rows.map((t) => [t.title, [t.overdue, t.timezone]]));
      };

      clock.set(before);
      expect(await read()).toEqual({
        "Ends at midnight": [false, zone1],
        "All day there": [false, zone2],
        "At noon there": [false, zone2],
      });
      clock.set(after);
      expect(await read()).toEqual({
        "Ends at midnight": [true, zone1],
        // A new day in zone1 brings the eighth day ahead into the week.
        "Eight days out": [false, zone1],
        "All day there": [false, zone2],
        "At noon there": [true, zone2],
      });
    } finally {
      clock.set(start);
      await api(alice, "PATCH", "/settings", { default_timezone: "UTC" });
    }
  });
});
