import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { endWsSession } from "../../src/workspace/session/session.service.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import type { SignedUp } from "../helpers/identity.ts";
import { openSse as openSseAt, openWs as openWsAt } from "../helpers/realtime-clients.ts";
import { waitFor } from "../helpers/wait.ts";
import { teamOwner } from "../helpers/workspace.ts";

let app: TestApp;
let alice: SignedUp;
let bob: SignedUp;
let teamId: string;
let bobTeamId: string;
beforeAll(async () => {
  app = await startApp();
  ({
    user: alice,
    team: { id: teamId },
  } = await teamOwner(app, "alice"));
  ({
    user: bob,
    team: { id: bobTeamId },
  } = await teamOwner(app, "bob", "Elsewhere"));
});
afterAll(() => app.stop());

const cookieOf = (user: SignedUp) => `cairn_ws=${user.browser.cookies.get("cairn_ws")}`;
const api = (user: SignedUp, team: string, method: string, path: string, body?: unknown) => user.browser.json(method, `/api/teams/${team}${path}`, body);

async function newSet(user: SignedUp, team: string, name: string): Promise<string> {
  const res = await api(user, team, "POST", "/sets", { name });
  expect(res.status).toBe(201);
  return res.data.set.id;
}
async function newTodo(user: SignedUp, team: string, setId: string, title: string): Promise<string> {
  const res = await api(user, team, "POST", `/sets/${setId}/todos`, { title });
  expect(res.status).toBe(201);
  return res.data.todo.id;
}

/** A member's stream of `team` (no cookie for `null`), resuming after `lastEventId` when given. */
function openSse(user: SignedUp | null, team: string, lastEventId?: number) {
  const headers: Record<string, string> = {};
  if (user) headers.cookie = cookieOf(user);
  if (lastEventId !== undefined) headers["last-event-id"] = String(lastEventId);
  return openSseAt(`${app.url}/api/realtime/sse?teamId=${encodeURIComponent(team)}`, headers);
}

function openWs(user: SignedUp, team: string, since?: number) {
  const query = `teamId=${encodeURIComponent(team)}${since === undefined ? "" : `&since=${since}`}`;
  return openWsAt(`${app.url.replace("http", "ws")}/api/realtime/ws?${query}`, { cookie: cookieOf(user) });
}

describe("ARCHITECTURE section 4 Realtime: Server-Sent Events", () => {
  it("streams todo:created with the event shape {id, type, teamId, setId, data, at}", async () => {
    const sse = await openSse(alice, teamId);
    try {
      expect(sse.res.status).toBe(200);
      expect(sse.res.headers.get("content-type")).toContain("text/event-stream");
      await sse.ready();
      const setId = await newSet(alice, teamId, "Groceries");
      const todoId = await newTodo(alice, teamId, setId, "Milk");
      const set = await sse.until((f) => f.event === "set:created");
      expect(set.data.data.id).toBe(setId);
      const frame = await sse.until((f) => f.event === "todo:created");
      const event = frame.data;
      expect(Object.keys(event).sort()).toEqual(["at", "data", "id", "setId", "teamId", "type"]);
      expect(event).toMatchObject({ type: "todo:created", teamId, setId, data: { id: todoId, title: "Milk" } });
      expect(typeof event.id).toBe("number");
      expect(frame.id).toBe(String(event.id));
      expect(event.id).toBeGreaterThan(set.data.id);
      expect(new Date(event.at).toISOString()).toBe(event.at);
    } finally {
      sse.close();
    }
  });

  it("replays only the events after Last-Event-ID on reconnect", async () => {
    const sse = await openSse(alice, teamId);
    let lastSeen: number;
    const setId = await newSet(alice, teamId, "Chores");
    try {
      await sse.ready();
      await newTodo(alice, teamId, setId, "Sweep");
      lastSeen = (await sse.until((f) => f.event === "todo:created" && f.data.data.title === "Sweep")).data.id;
    } finally {
      sse.close();
    }
    // Written while disconnected.
    const later = await newTodo(alice, teamId, setId, "Mop");
    await api(alice, teamId, "PATCH", `/todos/${later}`, { completed: true });
    const again = await openSse(alice, teamId, lastSeen);
    try {
      const updated = await again.until((f) => f.event === "todo:updated");
      expect(updated.data.data).toMatchObject({ id: later, completed: true });
      expect(again.frames.map((f) => f.event)).toEqual(["todo:created", "todo:updated"]);
      expect(again.frames[0]!.data.data.id).toBe(later);
      for (const f of again.frames) expect(f.data.id).toBeGreaterThan(lastSeen);
    } finally {
      again.close();
    }
  });

  it("announces imports: set:imported for an import into a set, set:created for a new-set import", async () => {
    const sse = await openSse(alice, teamId);
    try {
      await sse.ready();
      const setId = await newSet(alice, teamId, "Imports");
      const into = await api(alice, teamId, "POST", `/sets/${setId}/import`, { content: "- [ ] One\n- [x] Two\n" });
      expect(into.data).toEqual({ ok: true, imported: 2 });
      const imported = await sse.until((f) => f.event === "set:imported");
      expect(imported.data).toMatchObject({ type: "set:imported", setId, data: { setId, mode: "append", imported: 2 } });
      const fresh = await api(alice, teamId, "POST", "/sets/import", { content: "- [ ] Three\n", setName: "Fresh import" });
      expect(fresh.status).toBe(201);
      const created = await sse.until((f) => f.event === "set:created" && f.data.data.name === "Fresh import");
      expect(created.data.setId).toBe(fresh.data.set.id);
    } finally {
      sse.close();
    }
  });

  it("tells a client to refetch when its Last-Event-ID is not in the replay buffer", async () => {
    const sse = await openSse(alice, teamId, 1_000_000);
    try {
      const frame = await sse.until((f) => f.event === "refetch");
      expect(typeof frame.data.lastId).toBe("number");
    } finally {
      sse.close();
    }
  });

  it("answers 401 without a workspace session and 403 outside the team, with no stream", async () => {
    const anonymous = await openSse(null, teamId);
    expect(anonymous.res.status).toBe(401);
    expect(await anonymous.res.json()).toEqual({ error: "Unauthorized", code: "unauthorized" });
    const outsider = await openSse(bob, teamId);
    expect(outsider.res.status).toBe(403);
    expect(outsider.res.headers.get("content-type")).not.toContain("text/event-stream");
    expect(await outsider.res.json()).toEqual({ error: "Forbidden", code: "forbidden" });
  });

  it("does not leak one team's events to another team's subscribers", async () => {
    const bobs = await openSse(bob, bobTeamId);
    try {
      await bobs.ready();
      const aliceSet = await newSet(alice, teamId, "Secret");
      await newTodo(alice, teamId, aliceSet, "Hidden");
      const bobSet = await newSet(bob, bobTeamId, "Mine");
      await newTodo(bob, bobTeamId, bobSet, "Visible");
      await bobs.until((f) => f.event === "todo:created" && f.data.data.title === "Visible");
      for (const f of bobs.frames) expect(f.data.teamId).toBe(bobTeamId);
      expect(bobs.frames.some((f) => f.data.setId === aliceSet)).toBe(false);
    } finally {
      bobs.close();
    }
  });
});

describe("ARCHITECTURE section 4 Realtime: WebSocket", () => {
  it("sends live events as JSON text frames", async () => {
    const setId = await newSet(alice, teamId, "Garden");
    const client = openWs(alice, teamId);
    try {
      await client.opened;
      const todoId = await newTodo(alice, teamId, setId, "Water");
      const created = await client.until((m) => m.type === "todo:created" && m.data.id === todoId);
      expect(created).toMatchObject({ teamId, setId, data: { title: "Water" } });
      await api(alice, teamId, "DELETE", `/todos/${todoId}`);
      const deleted = await client.until((m) => m.type === "todo:deleted");
      expect(deleted.data).toEqual({ id: todoId });
      expect(deleted.id).toBeGreaterThan(created.id);
    } finally {
      client.close();
    }
  });

  it("carries a todo's due date in todo:created and todo:updated, and its clearing", async () => {
    const setId = await newSet(alice, teamId, "Bills");
    const client = openWs(alice, teamId);
    try {
      await client.opened;
      const created = await api(alice, teamId, "POST", `/sets/${setId}/todos`, { title: "Rent", dueDate: "2026-12-05" });
      const todoId = created.data.todo.id;
      expect((await client.until((m) => m.type === "todo:created" && m.data.id === todoId)).data).toMatchObject({ dueDate: "2026-12-05", dueTime: null });
      await api(alice, teamId, "PATCH", `/todos/${todoId}`, { dueTime: "18:00" });
      const timed = await client.until((m) => m.type === "todo:updated" && m.data.dueTime === "18:00");
      expect(timed.data).toMatchObject({ id: todoId, dueDate: "2026-12-05" });
      await api(alice, teamId, "PATCH", `/todos/${todoId}`, { dueDate: null });
      const cleared = await client.until((m) => m.type === "todo:updated" && m.data.dueDate === null);
      expect(cleared.data).toMatchObject({ id: todoId, dueTime: null });
    } finally {
      client.close();
    }
  });

  it("replays from ?since= before the live events", async () => {
    const setId = await newSet(alice, teamId, "Garage");
    const first = await newTodo(alice, teamId, setId, "Tidy");
    const client = openWs(alice, teamId, 0);
    try {
      await client.opened;
      const replayed = await client.until((m) => m.type === "todo:created" && m.data.id === first);
      expect(replayed.teamId).toBe(teamId);
    } finally {
      client.close();
    }
  });

  it("refuses a non-member before upgrading", async () => {
    const res = await fetch(`${app.url}/api/realtime/ws?teamId=${encodeURIComponent(teamId)}`, {
      headers: {
        cookie: cookieOf(bob),
        connection: "Upgrade",
        upgrade: "websocket",
        "sec-websocket-version": "13",
        "sec-websocket-key": btoa("0123456789abcdef"),
      },
    });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ error: "Forbidden", code: "forbidden" });
    const client = openWs(bob, teamId);
    await expect(client.opened).rejects.toThrow();
    client.close();
  });
});

describe("CONVENTIONS principle 8: fan-out re-checks the subscriber", () => {
  it("closes a WebSocket whose workspace session has ended, on the next event", async () => {
    const client = openWs(bob, bobTeamId);
    let closedWith: number | undefined;
    client.ws.addEventListener("close", (e) => (closedWith = e.code));
    try {
      await client.opened;
      await endWsSession(app.ctx, bob.browser.cookies.get("cairn_ws") as string);
      app.ctx.bus.publish({ type: "todo:updated", teamId: bobTeamId, setId: null, data: {} });
      expect(await waitFor(() => closedWith, { what: "the server to close the WebSocket", timeoutMs: 3000 })).toBe(1008);
      expect(client.messages).toEqual([]);
    } finally {
      client.close();
    }
  });
});
