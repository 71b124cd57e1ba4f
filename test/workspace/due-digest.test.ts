import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { addDays } from "../../src/contract/due-dates.ts";
import { sendDueDigest, sendDueDigests } from "../../src/workspace/digest/due-digest.ts";
import { attachToServer, startApp, type TestApp } from "../helpers/app.ts";
import { manualClock } from "../helpers/clock.ts";
import { type SignedUp, signUp } from "../helpers/identity.ts";
import { startSmtp, type TestSmtp } from "../helpers/smtp.ts";
import { teamOwner, workspaceSignIn } from "../helpers/workspace.ts";
import { mailEnv, markVerified, queuedMail, rawHeader, unsubscribeUrlOf } from "../helpers/workspace-mail.ts";

// Issue 44 item 6: the daily digest of what is due or overdue in your sets, once per local day at
// 07:00 in your time zone, run by the croner job (sendDueDigests) on the injectable clock. Sign-ins
// and API calls happen at the real time (the IdP's tokens are checked against it); only the
// digest runs at the chosen instants, days in the past, in zones without daylight saving.
const DAY = 86_400_000;
/** The first day of the story: two months ago. */
const D0 = new Date(Date.now() - 60 * DAY).toISOString().slice(0, 10);
const day = (n: number) => addDays(D0, n);
/** The team's zone: Tokyo, UTC+9. */
const tokyo = (n: number, time: string) => Date.parse(`${day(n)}T${time}:00+09:00`);
/** Bob's own zone later on: Kolkata, UTC+5:30. */
const kolkata = (n: number, time: string) => Date.parse(`${day(n)}T${time}:00+05:30`);

let smtp: TestSmtp;
let app: TestApp;
let alice: SignedUp;
let bob: SignedUp;
let teamId: string;
let setId: string;
const clock = manualClock();
/** Runs the digest at `instant`, then puts the clock back to the real time. */
async function at<T>(instant: number, run: () => Promise<T>): Promise<T> {
  clock.set(instant);
  try {
    return await run();
  } finally {
    clock.set(Date.now());
  }
}

const api = (user: SignedUp, method: string, path: string, body?: unknown) => {
  clock.set(Date.now());
  return user.browser.json(method, `/api/teams/${teamId}${path}`, body);
};
async function newTodo(title: string, dueDate: string | null, dueTime: string | null = null, set = setId): Promise<string> {
  const res = await api(alice, "POST", `/sets/${set}/todos`, { title, dueDate, dueTime });
  expect(res.status).toBe(201);
  return res.data.todo.id;
}
const turnOn = async (user: SignedUp, settings: Record<string, unknown>) =>
  expect((await user.browser.json("PUT", "/api/user/settings", settings)).status).toBe(200);
const digests = (user: SignedUp) => queuedMail(app, "due_digest", user.user.email);
const lastDigestTo = async (user: SignedUp) => {
  const subject = (await digests(user)).at(-1)?.subject;
  return smtp.waitFor((m) => m.to.includes(user.user.email) && m.subject === subject);
};

beforeAll(async () => {
  smtp = await startSmtp();
  app = await startApp({ env: mailEnv(smtp.url), overrides: { clock } });
  ({
    user: alice,
    team: { id: teamId },
  } = await teamOwner(app, "alice", "Household"));
  expect((await api(alice, "PATCH", "/settings", { default_timezone: "Asia/Tokyo" })).status).toBe(200);
  setId = (await api(alice, "POST", "/sets", { name: "Chores" })).data.set.id;
  bob = await signUp(app, "bob");
  expect((await alice.browser.json("POST", `/api/oauth/me/teams/${teamId}/members`, { username: "bob", role: "member" })).status).toBe(201);
  await markVerified(alice, bob);
  await workspaceSignIn(app, bob);
  await api(bob, "GET", "/sets"); // bob opens the team once
});
afterAll(async () => {
  await app?.stop();
  await smtp?.stop();
});

describe("issue 44: the daily digest of what is due", () => {
  it("is off until turned on, waits for 07:00 local, and sends nothing on a day when nothing is due", async () => {
    await newTodo("Next week", day(6));
    expect(await at(tokyo(0, "07:30"), () => sendDueDigests(app.ctx))).toEqual({}); // nobody turned it on
    await turnOn(alice, { notify_due_digest: true });
    expect(await at(tokyo(0, "06:30"), () => sendDueDigest(app.ctx, alice.user.id))).toBe("not_yet"); // the team's zone
    expect(await at(tokyo(0, "07:30"), () => sendDueDigests(app.ctx))).toEqual({ [alice.user.id]: "nothing_due" });
    // A todo made due today later that morning waits for tomorrow's digest: one look per day.
    await newTodo("Call the plumber", day(0));
    expect(await at(tokyo(0, "09:00"), () => sendDueDigest(app.ctx, alice.user.id))).toBe("already_done");
    expect(await digests(alice)).toEqual([]);
  });

  it("lists the open todos due today or overdue in the sets the person may view, soonest first, once per local date", async () => {
    await newTodo("Water the plants", day(1), "18:00");
    await newTodo("Pay rent", day(-9));
    const done = await newTodo("Already done", day(1));
    expect((await api(alice, "PATCH", `/todos/${done}`, { completed: true })).status).toBe(200);
    const hidden = (await api(alice, "POST", "/sets", { name: "Owners only" })).data.set.id;
    expect((await api(alice, "PUT", `/sets/${hidden}/permissions`, { member: { view_todos: false } })).status).toBe(200);
    await newTodo("Plan the surprise", day(1), null, hidden);
    await turnOn(bob, { notify_due_digest: true });

    expect(await at(tokyo(1, "06:59"), () => sendDueDigests(app.ctx))).toEqual({ [alice.user.id]: "not_yet", [bob.user.id]: "not_yet" });
    expect(await at(tokyo(1, "07:15"), () => sendDueDigests(app.ctx))).toEqual({ [alice.user.id]: "sent", [bob.user.id]: "sent" });
    expect(await at(tokyo(1, "07:30"), () => sendDueDigests(app.ctx))).toEqual({ [alice.user.id]: "already_done", [bob.user.id]: "already_done" });

    const toAlice = await lastDigestTo(alice);
    expect(toAlice.subject).toBe("Due today: 2 due today, 2 overdue");
    const lines = toAlice.text.split("\n").filter((l) => l.startsWith("Overdue") || l.startsWith("Today"));
    expect(lines).toEqual([
      `Overdue (due ${day(-9)}): “Pay rent” in Chores (Household)`,
      `Overdue (due ${day(0)}): “Call the plumber” in Chores (Household)`,
      "Today: “Plan the surprise” in Owners only (Household)",
      "Today 18:00: “Water the plants” in Chores (Household)",
    ]);
    expect(toAlice.text).toContain(`${app.url}/w/${teamId}/due-soon`);
    expect(unsubscribeUrlOf(toAlice)).toStartWith(`${app.url}/api/workspace/unsubscribe?token=`);
    expect(rawHeader(toAlice, "List-Unsubscribe-Post")).toBe("List-Unsubscribe=One-Click");
    // Bob may not view "Owners only": not a word of it.
    const toBob = await lastDigestTo(bob);
    expect(toBob.subject).toBe("Due today: 1 due today, 2 overdue");
    expect(toBob.text).not.toContain("Plan the surprise");
  });

  it("follows the person's own time zone when they chose one", async () => {
    await turnOn(bob, { timezone: "Asia/Kolkata" });
    expect(await at(kolkata(2, "06:30"), () => sendDueDigest(app.ctx, bob.user.id))).toBe("not_yet");
    expect(await at(kolkata(2, "06:30"), () => sendDueDigest(app.ctx, alice.user.id))).toBe("sent"); // 10:00 in Tokyo
    expect(await at(kolkata(2, "07:05"), () => sendDueDigest(app.ctx, bob.user.id))).toBe("sent");
    expect(await digests(bob)).toHaveLength(2);
  });

  it("stops once the person unsubscribes with the mail's link", async () => {
    const link = new URL(unsubscribeUrlOf(await lastDigestTo(bob)));
    const res = await app.client().fetch(link.pathname + link.search, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
    expect(res.status).toBe(200);
    expect(await at(tokyo(3, "12:00"), () => sendDueDigests(app.ctx))).toEqual({ [alice.user.id]: "sent" });
  });

  it("never sends a day's digest twice: not after a restart, not from a second process on the same database", async () => {
    expect(await at(tokyo(3, "13:00"), () => sendDueDigests(app.ctx))).toEqual({ [alice.user.id]: "already_done" });
    await app.stop();
    app = await startApp({ env: mailEnv(smtp.url), overrides: { clock }, dataDir: app.dataDir });
    expect(await at(tokyo(3, "13:15"), () => sendDueDigests(app.ctx))).toEqual({ [alice.user.id]: "already_done" });
    const second = await attachToServer(app.url, app.dataDir);
    try {
      second.ctx.clock = clock;
      expect(await at(tokyo(3, "13:30"), () => sendDueDigest(second.ctx, alice.user.id))).toBe("already_done");
    } finally {
      await second.stop();
    }
    expect(await digests(alice)).toHaveLength(3);
    expect(await digests(bob)).toHaveLength(2);
  });
});
