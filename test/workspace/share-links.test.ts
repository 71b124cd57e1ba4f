import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { sql } from "drizzle-orm";
import { sha256Hex } from "../../src/shared/crypto.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { type SignedUp, signUp } from "../helpers/identity.ts";
import { teamOwner, workspaceSignIn } from "../helpers/workspace.ts";

let app: TestApp;
let alice: SignedUp; // owner
let bob: SignedUp; // member: no manage_set_links by default
let teamId: string;
let setId: string;

const api = (user: SignedUp, method: string, path: string, body?: unknown) => user.browser.json(method, `/api/teams/${teamId}${path}`, body);
/** A stranger: no cookies at all. */
const pub = (method: string, path: string, body?: unknown) => app.json(method, `/api/shared/${path}`, body);
const expectError = (res: { status: number; data: any }, status: number, error: string) => {
  expect(res.data).toMatchObject({ error });
  expect(res.status).toBe(status);
};

async function newSet(name: string): Promise<string> {
  const res = await api(alice, "POST", "/sets", { name });
  expect(res.status).toBe(201);
  return res.data.set.id;
}
async function newTodo(set: string, title: string, parentId?: string): Promise<any> {
  const res = await api(alice, "POST", `/sets/${set}/todos`, { title, parentId });
  expect(res.status).toBe(201);
  return res.data.todo;
}
async function newLink(set: string, body: Record<string, unknown> = {}): Promise<any> {
  const res = await api(alice, "POST", `/sets/${set}/share-links`, body);
  expect(res.status).toBe(201);
  return res.data.link;
}

beforeAll(async () => {
  app = await startApp();
  ({
    user: alice,
    team: { id: teamId },
  } = await teamOwner(app, "alice"));
  bob = await signUp(app, "bob");
  expect((await alice.browser.json("POST", `/api/oauth/me/teams/${teamId}/members`, { username: "bob", role: "member" })).status).toBe(201);
  await workspaceSignIn(app, bob);
  setId = await newSet("Groceries");
});
afterAll(() => app.stop());

describe("spec 2 section 4.3: share-link management", () => {
  it("creates with the defaults (canView on, the rest off) and an unguessable URL-safe token", async () => {
    const link = await newLink(setId, { name: "Fridge" });
    expect(link).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      setId,
      token: expect.stringMatching(/^[A-Za-z0-9_-]{32,}$/),
      name: "Fridge",
      canView: true,
      canCreate: false,
      canEdit: false,
      canComplete: false,
      canDelete: false,
      canComment: false,
      canReorder: false,
      allowedEmails: "",
      requireEmailCode: false,
      createdBy: alice.user.id,
      createdAt: expect.stringMatching(/Z$/),
    });
    // At least 128 bits: 32 base64url characters carry 192.
    expect(link.token.length * 6).toBeGreaterThanOrEqual(128);
    const tokens = new Set(await Promise.all(Array.from({ length: 20 }, async () => (await newLink(setId)).token)));
    expect(tokens.size).toBe(20);
  });

  it("keeps no working token in the database: a hash for lookup, the token itself sealed", async () => {
    const link = await newLink(setId);
    // What a copy of the database holds: the rows as stored.
    const [row] = await app.ctx.db.all<Record<string, unknown>>(sql`SELECT * FROM share_links WHERE id = ${link.id}`);
    expect(row?.token_hash).toBe(sha256Hex(link.token));
    const dump = JSON.stringify(await app.ctx.db.all(sql`SELECT * FROM share_links`));
    expect(dump).not.toContain(link.token);
  });

  it("lists a set's links, and the team's with setName", async () => {
    const other = await newSet("Chores");
    const link = await newLink(other, { name: "Kids", canComplete: true });
    const forSet = await api(bob, "GET", `/sets/${other}/share-links`);
    expect(forSet.status).toBe(200);
    // A member sees the links but not their tokens: those are for holders of manage_set_links.
    expect(forSet.data.links).toEqual([expect.objectContaining({ id: link.id, name: "Kids", canComplete: true, token: "" })]);
    expect((await api(alice, "GET", `/sets/${other}/share-links`)).data.links[0].token).toBe(link.token);
    const forTeam = await api(bob, "GET", "/share-links");
    const mine = forTeam.data.links.find((l: any) => l.id === link.id);
    expect(mine).toMatchObject({ setId: other, setName: "Chores", token: "" });
    expect((await api(alice, "GET", "/share-links")).data.links.find((l: any) => l.id === link.id).token).toBe(link.token);
    expect(forTeam.data.links.filter((l: any) => l.setId === setId).every((l: any) => l.setName === "Groceries")).toBe(true);
    expectError(await api(bob, "GET", `/sets/${crypto.randomUUID()}/share-links`), 404, "Set not found");
  });

  it("403 Forbidden for a set's links when view_todos is revoked for the caller there; the team list leaves it out", async () => {
    const hidden = await newSet("Hidden from members");
    const link = await newLink(hidden, { canDelete: true });
    expect((await api(alice, "PUT", `/sets/${hidden}/permissions`, { member: { view_todos: false } })).status).toBe(200);
    expectError(await api(bob, "GET", `/sets/${hidden}/share-links`), 403, "Forbidden");
    expect((await api(bob, "GET", "/share-links")).data.links.some((l: any) => l.id === link.id)).toBe(false);
  });

  it("403 No permission to manage set links for a member on create, patch and delete; nothing changes", async () => {
    const link = await newLink(setId, { name: "Keep" });
    expectError(await api(bob, "POST", `/sets/${setId}/share-links`, {}), 403, "No permission to manage set links");
    expectError(await api(bob, "PATCH", `/share-links/${link.id}`, { canEdit: true }), 403, "No permission to manage set links");
    expectError(await api(bob, "DELETE", `/share-links/${link.id}`), 403, "No permission to manage set links");
    const after = (await api(alice, "GET", `/sets/${setId}/share-links`)).data.links.find((l: any) => l.id === link.id);
    expect(after).toMatchObject({ name: "Keep", canEdit: false });
  });

  it("patches only the provided fields; nothing recognised is 400 No updates", async () => {
    const link = await newLink(setId, { name: "Patchable", canCreate: true });
    expect(
      (await api(alice, "PATCH", `/share-links/${link.id}`, { canEdit: true, allowedEmails: " A@Example.com, b@example.com ,a@example.com" })).data,
    ).toEqual({ ok: true });
    const after = (await api(alice, "GET", `/sets/${setId}/share-links`)).data.links.find((l: any) => l.id === link.id);
    expect(after).toMatchObject({
      name: "Patchable",
      canCreate: true,
      canEdit: true,
      canView: true,
      allowedEmails: "a@example.com,b@example.com",
      token: link.token,
    });
    expectError(await api(alice, "PATCH", `/share-links/${link.id}`, {}), 400, "No updates");
    expectError(await api(alice, "PATCH", `/share-links/${link.id}`, { colour: "red" }), 400, "No updates");
    expectError(await api(alice, "PATCH", `/share-links/${crypto.randomUUID()}`, { canEdit: true }), 404, "Share link not found");
  });

  it("refuses bad input with 400 and changes nothing", async () => {
    const link = await newLink(setId, { name: "Strict" });
    expect((await api(alice, "PATCH", `/share-links/${link.id}`, { canEdit: "yes" })).status).toBe(400);
    expect((await api(alice, "PATCH", `/share-links/${link.id}`, { allowedEmails: "not-an-address" })).status).toBe(400);
    expect((await api(alice, "POST", `/sets/${setId}/share-links`, { name: 7 })).status).toBe(400);
    const after = (await api(alice, "GET", `/sets/${setId}/share-links`)).data.links.find((l: any) => l.id === link.id);
    expect(after).toMatchObject({ canEdit: false, allowedEmails: "" });
  });
});

describe("spec 2 section 4.4: the public side", () => {
  it("GET answers the set, the link's permissions, requiresEmail and the todos (sub-todos included)", async () => {
    const set = await newSet("Public view");
    const milk = await newTodo(set, "Milk");
    await newTodo(set, "Oat milk", milk.id);
    const link = await newLink(set, { canComplete: true });
    const res = await pub("GET", link.token);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toStartWith("application/json");
    expect(res.data).toEqual({
      set: { id: set, name: "Public view", timezone: "UTC" },
      permissions: { canView: true, canCreate: false, canEdit: false, canComplete: true, canDelete: false, canComment: false, canReorder: false },
      requiresEmail: false,
      requiresEmailCode: false,
      todos: [expect.objectContaining({ title: "Milk", parentId: null }), expect.objectContaining({ title: "Oat milk", parentId: milk.id })],
    });
  });

  it("shows each todo's due date and time, and the zone they are read in (the set's, else the team's)", async () => {
    const set = await newSet("Bills");
    const rent = (await api(alice, "POST", `/sets/${set}/todos`, { title: "Rent", dueDate: "2026-12-05" })).data.todo;
    const call = (await api(alice, "POST", `/sets/${set}/todos`, { title: "Call", dueDate: "2026-12-06", dueTime: "09:30" })).data.todo;
    const link = await newLink(set);
    const read = async () => (await pub("GET", link.token)).data;
    expect((await read()).todos.map((t: any) => [t.id, t.dueDate, t.dueTime])).toEqual([
      [rent.id, "2026-12-05", null],
      [call.id, "2026-12-06", "09:30"],
    ]);
    expect((await read()).set.timezone).toBe("UTC");
    expect((await api(alice, "PATCH", "/settings", { default_timezone: "Pacific/Auckland" })).status).toBe(200);
    expect((await read()).set.timezone).toBe("Pacific/Auckland");
    expect((await api(alice, "PATCH", `/sets/${set}`, { timezone: "Europe/Lisbon" })).status).toBe(200);
    expect((await read()).set.timezone).toBe("Europe/Lisbon");
    expect((await api(alice, "PATCH", "/settings", { default_timezone: "UTC" })).status).toBe(200);
  });

  it("404 Share link not found for an unknown or malformed token, on every endpoint", async () => {
    const unknown = "A".repeat(32);
    expectError(await pub("GET", unknown), 404, "Share link not found");
    expectError(await pub("GET", "not a token"), 404, "Share link not found");
    expectError(await pub("POST", `${unknown}/todos`, { title: "x" }), 404, "Share link not found");
    expectError(await pub("PATCH", `${unknown}/todos/${crypto.randomUUID()}`, { completed: true }), 404, "Share link not found");
    expectError(await pub("DELETE", `${unknown}/todos/${crypto.randomUUID()}`), 404, "Share link not found");
    expectError(await pub("POST", `${unknown}/todos/reorder`, { items: [] }), 404, "Share link not found");
  });

  it("names the missing capability: creating, editing, completing, deleting, reordering", async () => {
    const set = await newSet("Locked");
    const todo = await newTodo(set, "Fixed");
    const link = await newLink(set);
    expectError(await pub("POST", `${link.token}/todos`, { title: "New" }), 403, "This link does not allow creating todos");
    expectError(await pub("PATCH", `${link.token}/todos/${todo.id}`, { title: "Renamed" }), 403, "This link does not allow editing");
    expectError(await pub("PATCH", `${link.token}/todos/${todo.id}`, { completed: true }), 403, "This link does not allow completing");
    expectError(await pub("PATCH", `${link.token}/todos/${todo.id}`, { sortOrder: 3 }), 403, "This link does not allow reordering");
    expectError(await pub("DELETE", `${link.token}/todos/${todo.id}`), 403, "This link does not allow deleting");
    expectError(await pub("POST", `${link.token}/todos/reorder`, { items: [{ id: todo.id, sortOrder: 1 }] }), 403, "This link does not allow reordering");
    const list = (await api(alice, "GET", `/sets/${set}/todos`)).data.todos;
    expect(list).toEqual([expect.objectContaining({ title: "Fixed", completed: false, sortOrder: 0 })]);
  });

  it("checks each patched field against its own capability (complete-only link)", async () => {
    const set = await newSet("Complete only");
    const todo = await newTodo(set, "Tick me");
    const link = await newLink(set, { canComplete: true });
    expect((await pub("PATCH", `${link.token}/todos/${todo.id}`, { completed: true })).data).toEqual({ ok: true });
    // Mixed: one allowed, one not: refused as a whole.
    expectError(await pub("PATCH", `${link.token}/todos/${todo.id}`, { completed: false, title: "Sneaky" }), 403, "This link does not allow editing");
    const list = (await api(alice, "GET", `/sets/${set}/todos`)).data.todos;
    expect(list[0]).toMatchObject({ title: "Tick me", completed: true });
  });

  it("a full link creates (recorded as userId shared), edits, completes, reorders and deletes; errors per the table", async () => {
    const set = await newSet("Open house");
    const first = await newTodo(set, "First");
    const link = await newLink(set, { canCreate: true, canEdit: true, canComplete: true, canDelete: true, canReorder: true });
    const made = await pub("POST", `${link.token}/todos`, { title: "From outside" });
    expect(made.status).toBe(201);
    expect(made.data.todo).toMatchObject({ title: "From outside", userId: "shared", parentId: null, sortOrder: 1 });
    const sub = await pub("POST", `${link.token}/todos`, { title: "Nested", parentId: first.id });
    expect(sub.data.todo).toMatchObject({ parentId: first.id, userId: "shared" });
    expectError(await pub("POST", `${link.token}/todos`, { title: "  " }), 400, "Title is required");
    expectError(await pub("POST", `${link.token}/todos`, { title: "First" }), 409, "Todo item title already exists among sibling todos");
    expectError(await pub("POST", `${link.token}/todos`, { title: "Orphan", parentId: crypto.randomUUID() }), 404, "Parent todo not found");
    expectError(await pub("PATCH", `${link.token}/todos/${made.data.todo.id}`, { title: "First" }), 409, "Todo item title already exists among sibling todos");
    expectError(await pub("PATCH", `${link.token}/todos/${made.data.todo.id}`, {}), 400, "No updates");
    expectError(await pub("PATCH", `${link.token}/todos/${crypto.randomUUID()}`, { completed: true }), 404, "Not found");
    expectError(await pub("POST", `${link.token}/todos/reorder`, { items: [] }), 400, "No items");
    expect((await pub("PATCH", `${link.token}/todos/${made.data.todo.id}`, { title: "Renamed", completed: true })).status).toBe(200);
    expect(
      (
        await pub("POST", `${link.token}/todos/reorder`, {
          items: [
            { id: made.data.todo.id, sortOrder: 0 },
            { id: first.id, sortOrder: 1 },
          ],
        })
      ).status,
    ).toBe(200);
    let list = (await api(alice, "GET", `/sets/${set}/todos`)).data.todos.filter((t: any) => t.parentId === null);
    expect(list.map((t: any) => [t.title, t.completed])).toEqual([
      ["Renamed", true],
      ["First", false],
    ]);
    expect((await pub("DELETE", `${link.token}/todos/${first.id}`)).data).toEqual({ ok: true });
    list = (await api(alice, "GET", `/sets/${set}/todos`)).data.todos;
    expect(list.map((t: any) => t.title)).toEqual(["Renamed"]);
  });

  it("never reaches another set's todos through a link", async () => {
    const mine = await newSet("Link set");
    const other = await newSet("Private set");
    const secret = await newTodo(other, "Secret");
    const link = await newLink(mine, { canEdit: true, canComplete: true, canDelete: true, canReorder: true, canCreate: true });
    expectError(await pub("PATCH", `${link.token}/todos/${secret.id}`, { completed: true }), 404, "Not found");
    expectError(await pub("DELETE", `${link.token}/todos/${secret.id}`), 404, "Not found");
    expectError(await pub("POST", `${link.token}/todos/reorder`, { items: [{ id: secret.id, sortOrder: 5 }] }), 404, "Not found");
    expectError(await pub("POST", `${link.token}/todos`, { title: "Under secret", parentId: secret.id }), 404, "Parent todo not found");
    expect((await api(alice, "GET", `/sets/${other}/todos`)).data.todos).toEqual([
      expect.objectContaining({ title: "Secret", completed: false, sortOrder: 0 }),
    ]);
  });

  it("honours the email allow-list: case-insensitive and trimmed, as query or body; requiresEmail on GET", async () => {
    const set = await newSet("Restricted");
    const todo = await newTodo(set, "Private");
    const link = await newLink(set, { canComplete: true, canDelete: true, allowedEmails: "friend@example.com, Other@Example.org" });
    expect(link.allowedEmails).toBe("friend@example.com,other@example.org");
    const denied = await pub("GET", link.token);
    expect(denied.status).toBe(403);
    expect(denied.data).toEqual({ error: "Access denied", code: "link_access_denied", requiresEmail: true });
    expect((await pub("GET", `${link.token}?email=stranger@example.com`)).data).toEqual({
      error: "Access denied",
      code: "link_access_denied",
      requiresEmail: true,
    });
    const ok = await pub("GET", `${link.token}?email=${encodeURIComponent("  FRIEND@example.COM ")}`);
    expect(ok.status).toBe(200);
    expect(ok.data.requiresEmail).toBe(true);
    expect(ok.data.todos.map((t: any) => t.title)).toEqual(["Private"]);
    expectError(await pub("PATCH", `${link.token}/todos/${todo.id}`, { completed: true }), 403, "Access denied");
    expectError(await pub("PATCH", `${link.token}/todos/${todo.id}`, { completed: true, email: "nope@example.com" }), 403, "Access denied");
    expect((await pub("PATCH", `${link.token}/todos/${todo.id}`, { completed: true, email: "other@example.org" })).status).toBe(200);
    expectError(await pub("DELETE", `${link.token}/todos/${todo.id}`), 403, "Access denied");
    expect((await pub("DELETE", `${link.token}/todos/${todo.id}?email=Other@example.org`)).status).toBe(200);
  });

  it("matches the allow-list by whole address: a part of a listed one is not on it", async () => {
    const set = await newSet("Near misses");
    const todo = await newTodo(set, "Bob's");
    const link = await newLink(set, { canComplete: true, allowedEmails: "bob@x.com" });
    // What a substring, prefix or suffix match of "bob@x.com" (or of the stored list) would let in.
    for (const email of ["b@x.com", "ob@x.com", "bob@x.co", "bob@x", "x.com", "@", "bob@x.com,", "bob@x.com.evil.test", "alice.bob@x.com"]) {
      const read = await pub("GET", `${link.token}?email=${encodeURIComponent(email)}`);
      expect({ email, status: read.status }).toEqual({ email, status: 403 });
      expectError(await pub("PATCH", `${link.token}/todos/${todo.id}`, { completed: true, email }), 403, "Access denied");
      const events = await fetch(`${app.url}/api/shared/${link.token}/events?email=${encodeURIComponent(email)}`);
      expect({ email, status: events.status }).toEqual({ email, status: 403 });
      await events.body?.cancel();
    }
    expect((await pub("GET", `${link.token}?email=bob@x.com`)).status).toBe(200);
  });

  it("a link without canView shows no todos but still allows what it allows (a drop box)", async () => {
    const set = await newSet("Drop box");
    await newTodo(set, "Hidden");
    const link = await newLink(set, { canView: false, canCreate: true });
    const res = await pub("GET", link.token);
    expect(res.data).toMatchObject({ permissions: { canView: false, canCreate: true }, todos: [] });
    expect((await pub("POST", `${link.token}/todos`, { title: "Dropped" })).status).toBe(201);
    expectError(await pub("GET", `${link.token}/events`), 403, "This link does not allow viewing");
  });

  it("stops a deleted link at once, and answers Set not found once its set is deleted (even if the id comes back)", async () => {
    const set = await newSet("Short-lived");
    await newTodo(set, "Gone soon");
    const link = await newLink(set);
    const other = await newLink(set);
    expect((await pub("GET", link.token)).status).toBe(200);
    expect((await api(alice, "DELETE", `/share-links/${link.id}`)).data).toEqual({ ok: true });
    expectError(await pub("GET", link.token), 404, "Share link not found");
    expect((await api(alice, "DELETE", `/sets/${set}`)).status).toBe(200);
    expectError(await pub("GET", other.token), 404, "Set not found");
    expectError(await pub("POST", `${other.token}/todos`, { title: "x" }), 404, "Set not found");
    expect((await api(alice, "GET", "/share-links")).data.links.some((l: any) => l.id === other.id)).toBe(false);
    // A set imported with the old id does not revive the old link.
    const exported = JSON.stringify({ id: set, name: "Short-lived again", todos: [{ title: "Back", completed: false }] });
    expect((await api(alice, "POST", "/sets/import", { format: "json", content: exported })).status).toBe(201);
    expectError(await pub("GET", other.token), 404, "Set not found");
  });

  it("broadcasts writes through a link to the team as realtime events", async () => {
    const set = await newSet("Broadcast");
    const link = await newLink(set, { canCreate: true });
    const abort = new AbortController();
    const res = await fetch(`${app.url}/api/realtime/sse?teamId=${encodeURIComponent(teamId)}`, {
      headers: { cookie: `cairn_ws=${alice.browser.cookies.get("cairn_ws")}` },
      signal: abort.signal,
    });
    const reader = res.body!.getReader();
    let text = "";
    try {
      text += new TextDecoder().decode((await reader.read()).value); // ": connected"
      await pub("POST", `${link.token}/todos`, { title: "Shouted" });
      const deadline = Date.now() + 3000;
      while (!text.includes("Shouted") && Date.now() < deadline) text += new TextDecoder().decode((await reader.read()).value);
      expect(text).toContain("event: todo:created");
      expect(text).toContain('"userId":"shared"');
    } finally {
      abort.abort();
    }
  });
});

describe("ARCHITECTURE section 4: a public page follows its set over SSE", () => {
  it("streams its own set's events only, honours the allow-list, and ends when the link is deleted", async () => {
    const set = await newSet("Followed");
    const elsewhere = await newSet("Elsewhere");
    const link = await newLink(set, { allowedEmails: "friend@example.com" });
    expectError(await pub("GET", `${link.token}/events`), 403, "Access denied");
    const abort = new AbortController();
    const res = await fetch(`${app.url}/api/shared/${link.token}/events?email=friend@example.com`, { signal: abort.signal });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = decoder.decode((await reader.read()).value);
    try {
      await newTodo(elsewhere, "Not for the public");
      await newTodo(set, "For the public");
      const deadline = Date.now() + 3000;
      while (!text.includes("For the public") && Date.now() < deadline) text += decoder.decode((await reader.read()).value);
      expect(text).toContain("event: todo:created");
      expect(text).not.toContain("Not for the public");
      expect((await api(alice, "DELETE", `/share-links/${link.id}`)).status).toBe(200);
      // The next event finds the link gone and ends the stream.
      await newTodo(set, "After the end");
      let done = false;
      while (!done && Date.now() < deadline + 3000) {
        const chunk = await reader.read();
        done = chunk.done;
        if (chunk.value) text += decoder.decode(chunk.value);
      }
      expect(done).toBe(true);
      expect(text).not.toContain("After the end");
    } finally {
      abort.abort();
    }
  });
});

describe("a public stream follows the link's current allow-list", () => {
  it("ends an anonymous visitor's stream when an allow-list is added", async () => {
    const set = await newSet("Tightened");
    const link = await newLink(set);
    const abort = new AbortController();
    const res = await fetch(`${app.url}/api/shared/${link.token}/events`, { signal: abort.signal });
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = decoder.decode((await reader.read()).value);
    try {
      expect((await api(alice, "PATCH", `/share-links/${link.id}`, { allowedEmails: "vip@example.com" })).status).toBe(200);
      await newTodo(set, "Only for the VIP");
      let done = false;
      const deadline = Date.now() + 3000;
      while (!done && Date.now() < deadline) {
        const chunk = await reader.read();
        done = chunk.done;
        if (chunk.value) text += decoder.decode(chunk.value);
      }
      expect(done).toBe(true);
      expect(text).not.toContain("Only for the VIP");
    } finally {
      abort.abort();
    }
  });
});
