import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { startApp, type TestApp } from "../helpers/app.ts";
import { type SignedUp, signUp } from "../helpers/identity.ts";
import { startSmtp, type TestSmtp } from "../helpers/smtp.ts";
import { teamOwner, workspaceSignIn } from "../helpers/workspace.ts";
import { mailEnv, markVerified, queuedMail, rawHeader, unsubscribeUrlOf } from "../helpers/workspace-mail.ts";

// Issue 44 item 6: workspace notices by mail, per person and per kind, off until turned on, each
// with a one-click unsubscribe link (RFC 8058). Mail arrives at a real SMTP server on loopback; a
// notice left out is one never queued (the outbox row is written with the change or not at all).
let smtp: TestSmtp;
let app: TestApp;
let alice: SignedUp; // owner, the first account: her address is verified
let bob: SignedUp; // member, verified by the admin
let carol: SignedUp; // member, never verified
let teamId: string;
let setId: string;

const api = (user: SignedUp, method: string, path: string, body?: unknown) => user.browser.json(method, `/api/teams/${teamId}${path}`, body);
const settings = (user: SignedUp, body: Record<string, unknown>) => user.browser.json("PUT", "/api/user/settings", body);
async function newTodo(by: SignedUp, title: string): Promise<string> {
  const res = await api(by, "POST", `/sets/${setId}/todos`, { title });
  expect(res.status).toBe(201);
  return res.data.todo.id;
}
const assign = (by: SignedUp, todoId: string, userIds: string[]) => api(by, "PUT", `/todos/${todoId}/assignees`, { userIds });
const comment = (by: SignedUp, todoId: string, body: string) => api(by, "POST", `/todos/${todoId}/comments`, { body });
const to = (user: SignedUp) => user.user.email;

beforeAll(async () => {
  smtp = await startSmtp();
  app = await startApp({ env: mailEnv(smtp.url) });
  ({
    user: alice,
    team: { id: teamId },
  } = await teamOwner(app, "alice", "Household"));
  bob = await signUp(app, "bob", { name: "Bob Brown" });
  carol = await signUp(app, "carol");
  for (const member of [bob, carol])
    expect((await alice.browser.json("POST", `/api/oauth/me/teams/${teamId}/members`, { username: member.user.username, role: "member" })).status).toBe(201);
  await markVerified(alice, bob);
  await workspaceSignIn(app, bob);
  await workspaceSignIn(app, carol);
  const set = await api(alice, "POST", "/sets", { name: "Groceries" });
  setId = set.data.set.id;
});
afterAll(async () => {
  await app?.stop();
  await smtp?.stop();
});

describe("issue 44: the settings", () => {
  it("every notice is off until turned on; the fields are booleans and the time zone an IANA name or empty", async () => {
    expect((await bob.browser.json("GET", "/api/user/settings")).data.settings).toEqual({});
    const saved = await settings(bob, { notify_assigned: true, timezone: "Europe/Berlin" });
    expect(saved.status).toBe(200);
    expect(saved.data.settings).toEqual({ notify_assigned: true, timezone: "Europe/Berlin" });
    for (const bad of [{ notify_comments: "yes" }, { timezone: "Mars/Base" }, { notify_due_digest: 1 }]) {
      const res = await settings(bob, bad);
      expect(res.status).toBe(400);
      expect(res.data).toMatchObject({ error: "Invalid request" });
    }
    expect((await settings(bob, { notify_assigned: false, timezone: "" })).data.settings).toEqual({ notify_assigned: false, timezone: "" });
  });

  it("GET /api/workspace/mail says mail works and where notices go, as the IdP vouches for it", async () => {
    expect((await bob.browser.json("GET", "/api/workspace/mail")).data).toEqual({ mail: true, email: "bob@example.com", emailVerified: true });
    expect((await carol.browser.json("GET", "/api/workspace/mail")).data).toEqual({ mail: true, email: "carol@example.com", emailVerified: false });
    // Verified at the IdP after the sign-in: the page learns it on the spot, and so do the notices.
    await markVerified(alice, carol);
    expect((await carol.browser.json("GET", "/api/workspace/mail")).data.emailVerified).toBe(true);
    expect((await app.client().json("GET", "/api/workspace/mail")).status).toBe(401);
  });
});

describe("issue 44: a todo assigned to you", () => {
  it("is mailed when the notice is on, never when it is off, when you assign yourself, or when you were already assigned", async () => {
    const milk = await newTodo(alice, "Milk");
    expect((await assign(alice, milk, [bob.user.id])).status).toBe(200);
    expect(await queuedMail(app, "todo_assigned", to(bob))).toEqual([]); // off by default

    await settings(bob, { notify_assigned: true });
    const bread = await newTodo(alice, "Bread");
    expect((await assign(alice, bread, [bob.user.id])).status).toBe(200);
    const mail = await smtp.waitFor((m) => m.to.includes(to(bob)) && m.subject.includes("Bread"));
    expect(mail.subject).toBe("alice assigned you “Bread”");
    expect(mail.text).toContain("“Bread”");
    expect(mail.text).toContain("In Groceries (Household).");
    expect(mail.text).toContain(`${app.url}/w/${teamId}/sets/${setId}`);
    expect(mail.html).toContain(`href="${app.url}/w/${teamId}/sets/${setId}"`);
    // RFC 8058: the one-click unsubscribe headers, and the same link in the body.
    const unsubscribe = unsubscribeUrlOf(mail);
    expect(unsubscribe).toStartWith(`${app.url}/api/workspace/unsubscribe?token=`);
    expect(rawHeader(mail, "List-Unsubscribe-Post")).toBe("List-Unsubscribe=One-Click");
    expect(mail.text).toContain(unsubscribe);

    // The same list again (bob kept), and alice assigning herself: nothing new for either.
    await settings(alice, { notify_assigned: true });
    expect((await assign(alice, bread, [bob.user.id, alice.user.id])).status).toBe(200);
    expect((await queuedMail(app, "todo_assigned", to(bob))).map((m) => m.subject)).toEqual(["alice assigned you “Bread”"]);
    expect(await queuedMail(app, "todo_assigned", to(alice))).toEqual([]);
    await settings(alice, { notify_assigned: false });
  });

  it("goes only to an address the IdP vouches for", async () => {
    const dave = await signUp(app, "dave");
    expect((await alice.browser.json("POST", `/api/oauth/me/teams/${teamId}/members`, { username: "dave", role: "member" })).status).toBe(201);
    await workspaceSignIn(app, dave);
    await settings(dave, { notify_assigned: true });
    const jam = await newTodo(alice, "Jam");
    expect((await assign(alice, jam, [dave.user.id])).status).toBe(200);
    expect(await queuedMail(app, "todo_assigned", to(dave))).toEqual([]);
  });
});

describe("issue 44: a comment on your todo", () => {
  it("reaches the creator and the assignees who turned it on, never its author", async () => {
    await settings(alice, { notify_comments: true });
    await settings(bob, { notify_comments: true });
    await settings(carol, { notify_comments: true }); // neither creator nor assignee of this todo
    const rice = await newTodo(alice, "Rice");
    expect((await assign(alice, rice, [bob.user.id])).status).toBe(200);

    expect((await comment(bob, rice, "Brown or white?\n\nThe **big** bag.")).status).toBe(201);
    const toAlice = await smtp.waitFor((m) => m.to.includes(to(alice)) && m.subject.includes("Rice"));
    expect(toAlice.subject).toBe("Bob Brown commented on “Rice”");
    expect(toAlice.text).toContain("Brown or white?");
    expect(toAlice.text).toContain("The **big** bag.");
    expect(rawHeader(toAlice, "List-Unsubscribe-Post")).toBe("List-Unsubscribe=One-Click");

    expect((await comment(alice, rice, "White, please.")).status).toBe(201);
    const toBob = await smtp.waitFor((m) => m.to.includes(to(bob)) && m.subject === "alice commented on “Rice”");
    expect(toBob.text).toContain("White, please.");

    const comments = await queuedMail(app, "todo_comment");
    expect(comments.map((m) => [m.to_address, m.subject])).toEqual([
      [to(alice), "Bob Brown commented on “Rice”"],
      [to(bob), "alice commented on “Rice”"],
    ]);
  });

  it("says nothing to a member who may not view the set", async () => {
    const secret = (await api(alice, "POST", "/sets", { name: "Surprise party" })).data.set.id;
    expect((await api(alice, "PUT", `/sets/${secret}/permissions`, { member: { view_todos: false } })).status).toBe(200);
    const cake = (await api(alice, "POST", `/sets/${secret}/todos`, { title: "Cake" })).data.todo.id;
    await settings(bob, { notify_assigned: true });
    const before = (await queuedMail(app, "todo_assigned", to(bob))).length;
    expect((await assign(alice, cake, [bob.user.id])).status).toBe(200);
    expect((await queuedMail(app, "todo_assigned", to(bob))).length).toBe(before);
  });
});

describe("issue 44: one-click unsubscribe (RFC 8058)", () => {
  it("GET shows a page and changes nothing; POST turns that kind off without a sign-in; again is the same success", async () => {
    await settings(bob, { notify_assigned: true, notify_comments: true });
    const tea = await newTodo(alice, "Tea");
    await assign(alice, tea, [bob.user.id]);
    const link = new URL(unsubscribeUrlOf(await smtp.waitFor((m) => m.to.includes(to(bob)) && m.subject.includes("Tea"))));
    const url = link.pathname + link.search;
    const stranger = app.client();

    const page = await stranger.fetch(url);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toStartWith("text/html");
    const html = await page.text();
    expect(html).toContain("Stop mail when someone assigns you a todo?");
    expect(html).toContain('<form method="post">');
    expect(html).toContain('name="List-Unsubscribe" value="One-Click"');
    expect((await bob.browser.json("GET", "/api/user/settings")).data.settings.notify_assigned).toBe(true);

    // What a mail client sends (RFC 8058 section 3.1): no cookie, no Origin.
    const oneClick = () =>
      stranger.fetch(url, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "List-Unsubscribe=One-Click" });
    const done = await oneClick();
    expect(done.status).toBe(200);
    expect(await done.text()).toContain("You will no longer get mail when someone assigns you a todo.");
    expect((await bob.browser.json("GET", "/api/user/settings")).data.settings).toMatchObject({ notify_assigned: false, notify_comments: true });
    expect((await oneClick()).status).toBe(200);

    const coffee = await newTodo(alice, "Coffee");
    const before = (await queuedMail(app, "todo_assigned", to(bob))).length;
    await assign(alice, coffee, [bob.user.id]);
    expect((await queuedMail(app, "todo_assigned", to(bob))).length).toBe(before);
  });

  it("a token this instance did not sign, or for another kind, changes nothing", async () => {
    await settings(bob, { notify_assigned: true });
    const token = new URL(unsubscribeUrlOf(await smtp.waitFor((m) => m.to.includes(to(bob)) && m.subject.includes("Tea")))).searchParams.get("token") as string;
    const [payload, sig] = token.split(".") as [string, string];
    const forged = `${Buffer.from(`due_digest:${bob.user.id}`).toString("base64url")}.${sig}`;
    const flipped = `${payload}.${sig.slice(0, -1)}${sig.endsWith("A") ? "B" : "A"}`;
    for (const bad of [forged, flipped, "", "nonsense"]) {
      const res = await app.client().fetch(`/api/workspace/unsubscribe?token=${encodeURIComponent(bad)}`, { method: "POST" });
      expect(res.status).toBe(400);
      expect(await res.text()).toContain("This unsubscribe link does not work");
    }
    expect((await app.client().fetch("/api/workspace/unsubscribe")).status).toBe(400);
    expect((await bob.browser.json("GET", "/api/user/settings")).data.settings.notify_assigned).toBe(true);
  });
});
