import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { startApp, type TestApp } from "../helpers/app.ts";
import { manualClock } from "../helpers/clock.ts";
import { PASSWORD, type SignedUp, signUp } from "../helpers/identity.ts";
import { openSse, openWs } from "../helpers/realtime-clients.ts";
import { teamOwner, workspaceSignIn } from "../helpers/workspace.ts";

/*
 * Issue 43 item 3: who hears an event is decided from what the realtime hub keeps in memory, so
 * every change that ends a right must reach it. Each test makes one change and checks that the
 * subscriber who lost the right is dropped at once (no event needed to notice), and that the very
 * next event reaches exactly who may still see it.
 */

let app: TestApp;
let alice: SignedUp; // the team's owner: her own stream is the control that the next event went out
let teamId: string;
let openSet: string;
let hiddenSet: string; // members may not view it (a set override); admins may
beforeAll(async () => {
  app = await startApp();
  ({
    user: alice,
    team: { id: teamId },
  } = await teamOwner(app, "alice"));
  openSet = await newSet("Open");
  hiddenSet = await newSet("Hidden from members");
  expect((await api("PUT", `/sets/${hiddenSet}/permissions`, { member: { view_todos: false } })).status).toBe(200);
});
afterAll(() => app.stop());

const api = (method: string, path: string, body?: unknown) => alice.browser.json(method, `/api/teams/${teamId}${path}`, body);
const cookieOf = (user: SignedUp) => ({ cookie: `cairn_ws=${user.browser.cookies.get("cairn_ws")}` });
const sseOf = (user: SignedUp) => openSse(`${app.url}/api/realtime/sse?teamId=${teamId}`, cookieOf(user));
const wsOf = (user: SignedUp) => openWs(`${app.url.replace("http", "ws")}/api/realtime/ws?teamId=${teamId}`, cookieOf(user));

async function newSet(name: string): Promise<string> {
  const res = await api("POST", "/sets", { name });
  expect(res.status).toBe(201);
  return res.data.set.id;
}

let titles = 0;
/** Alice writes a todo into `set`; answers once her own stream has its event (it has gone out to all). */
async function nextEvent(set: string): Promise<string> {
  const title = `event ${++titles}`;
  const control = await sseOf(alice);
  try {
    await control.ready();
    expect((await api("POST", `/sets/${set}/todos`, { title })).status).toBe(201);
    await control.until((f) => f.event === "todo:created" && f.data.data.title === title);
  } finally {
    control.close();
  }
  return title;
}
const sawTitle = (items: { data: any }[], title: string) => items.some((i) => JSON.stringify(i.data).includes(`"${title}"`));

/** A new user, member of Alice's team with `role`, signed in to the workspace. */
async function member(name: string, role: "member" | "admin" = "member"): Promise<SignedUp> {
  const user = await signUp(app, name);
  expect((await alice.browser.json("POST", `/api/oauth/me/teams/${teamId}/members`, { username: name, role })).status).toBe(201);
  await workspaceSignIn(app, user);
  return user;
}

/** `user`'s SSE and WebSocket streams of the team, both seen to carry an event before the change. */
async function streamsOf(user: SignedUp) {
  const sse = await sseOf(user);
  const ws = wsOf(user);
  await Promise.all([sse.ready(), ws.opened]);
  const before = await nextEvent(openSet);
  await sse.until((f) => f.data.data.title === before);
  await ws.until((m) => m.data.title === before);
  return { sse, ws, close: () => (sse.close(), ws.close()) };
}

/** Both streams end without waiting for another event, and the very next event reaches neither. */
async function expectDropped({ sse, ws }: Awaited<ReturnType<typeof streamsOf>>) {
  expect(await sse.ended()).toBe(true);
  expect(await ws.closed()).toBe(1008);
  const after = await nextEvent(openSet);
  expect(sawTitle(sse.frames, after)).toBe(false);
  expect(sawTitle(ws.messages, after)).toBe(false);
}

describe("issue 43: fan-out follows memberships and roles at once", () => {
  it("drops a member removed from the team at the identity provider: nothing more reaches them", async () => {
    const bob = await member("bob");
    const streams = await streamsOf(bob);
    try {
      expect((await alice.browser.json("DELETE", `/api/oauth/me/teams/${teamId}/members/${bob.user.id}`)).status).toBe(200);
      await expectDropped(streams);
    } finally {
      streams.close();
    }
  });

  it("lets a member added at the identity provider subscribe and get the next event", async () => {
    const carol = await signUp(app, "carol");
    await workspaceSignIn(app, carol);
    expect((await alice.browser.json("POST", `/api/oauth/me/teams/${teamId}/members`, { username: "carol", role: "member" })).status).toBe(201);
    const sse = await sseOf(carol);
    const ws = wsOf(carol);
    try {
      expect(sse.res.status).toBe(200);
      await Promise.all([sse.ready(), ws.opened]);
      const title = await nextEvent(openSet);
      await sse.until((f) => f.data.data.title === title);
      await ws.until((m) => m.data.title === title);
    } finally {
      sse.close();
      ws.close();
    }
  });

  it("applies a role changed at the identity provider to the very next event: a demoted admin no longer hears a set members may not view", async () => {
    const dave = await member("dave", "admin");
    const streams = await streamsOf(dave);
    try {
      const seen = await nextEvent(hiddenSet);
      await streams.sse.until((f) => f.data.data.title === seen);
      expect((await alice.browser.json("PATCH", `/api/oauth/me/teams/${teamId}/members/${dave.user.id}`, { role: "member" })).status).toBe(200);
      const hidden = await nextEvent(hiddenSet);
      const open = await nextEvent(openSet);
      // Still subscribed (a member may view the team), but the hidden set's event skipped them.
      await streams.sse.until((f) => f.data.data.title === open);
      await streams.ws.until((m) => m.data.title === open);
      expect(sawTitle(streams.sse.frames, hidden)).toBe(false);
      expect(sawTitle(streams.ws.messages, hidden)).toBe(false);
    } finally {
      streams.close();
    }
  });

  it("skips a member on the very next event of a set whose view_todos was revoked for them, and still sends the other sets", async () => {
    const erin = await member("erin");
    const set = await newSet("Soon private");
    const streams = await streamsOf(erin);
    try {
      const before = await nextEvent(set);
      await streams.sse.until((f) => f.data.data.title === before);
      expect((await api("PUT", `/sets/${set}/permissions`, { member: { view_todos: false } })).status).toBe(200);
      const hidden = await nextEvent(set);
      const open = await nextEvent(openSet);
      await streams.sse.until((f) => f.data.data.title === open);
      await streams.ws.until((m) => m.data.title === open);
      expect(sawTitle(streams.sse.frames, hidden)).toBe(false);
      expect(sawTitle(streams.ws.messages, hidden)).toBe(false);
    } finally {
      streams.close();
    }
  });
});

describe("issue 43: fan-out follows sessions at once", () => {
  /** A new member's streams, seen to work; then `change` (by them); then they must be dropped. */
  async function droppedAfter(name: string, change: (user: SignedUp) => Promise<void>) {
    const user = await member(name);
    const streams = await streamsOf(user);
    try {
      await change(user);
      await expectDropped(streams);
    } finally {
      streams.close();
    }
  }

  it("ends the streams of a workspace sign-out", () =>
    droppedAfter("frank", async (frank) => expect((await frank.browser.json("POST", "/api/workspace/logout")).status).toBe(200)));

  it("ends the streams of a session revoked at the identity provider", () =>
    droppedAfter("gina", async (gina) => {
      const { sessions } = (await gina.browser.json("GET", "/api/oauth/me/sessions")).data;
      const current = sessions.find((s: { current: boolean }) => s.current);
      expect((await gina.browser.json("DELETE", `/api/oauth/me/sessions/${current.sid}`)).status).toBe(200);
    }));

  it("ends the streams of a deleted account", () =>
    droppedAfter("hank", async (hank) => expect((await hank.browser.json("DELETE", "/api/oauth/me", { password: PASSWORD })).status).toBe(200)));
});

describe("issue 43: a public stream follows its share link at once", () => {
  const publicStream = (token: string, email?: string) => openSse(`${app.url}/api/shared/${token}/events${email ? `?email=${encodeURIComponent(email)}` : ""}`);
  async function newLink(set: string, body: Record<string, unknown> = {}) {
    const res = await api("POST", `/sets/${set}/share-links`, body);
    expect(res.status).toBe(201);
    return res.data.link as { id: string; token: string };
  }
  /** The public streams, each seen to carry an event of the set before the change. */
  async function following(set: string, streams: Awaited<ReturnType<typeof publicStream>>[]) {
    await Promise.all(streams.map((s) => s.ready()));
    const before = await nextEvent(set);
    for (const s of streams) await s.until((f) => f.data.data?.title === before);
  }

  /** A new set with a link, followed by one public stream, which `change` then acts on. */
  async function afterLinkChange(name: string, change: (link: { id: string }) => Promise<unknown>, expectEnded: boolean) {
    const set = await newSet(name);
    const link = await newLink(set);
    const stream = await publicStream(link.token);
    try {
      await following(set, [stream]);
      await change(link);
      if (expectEnded) {
        expect(await stream.ended()).toBe(true);
        expect(sawTitle(stream.frames, await nextEvent(set))).toBe(false);
      } else {
        const next = await nextEvent(set);
        await stream.until((f) => f.data.data?.title === next);
      }
    } finally {
      stream.close();
    }
  }
  const patched = (body: unknown) => async (link: { id: string }) => expect((await api("PATCH", `/share-links/${link.id}`, body)).status).toBe(200);

  it("ends the stream of a deleted link, and the next event does not reach it", () =>
    afterLinkChange("Linked", async (link) => expect((await api("DELETE", `/share-links/${link.id}`)).status).toBe(200), true));

  it("ends the stream when the link stops allowing viewing", () => afterLinkChange("Drop box soon", patched({ canView: false }), true));

  it("keeps a stream whose link gains a capability, and the next event reaches it", () => afterLinkChange("Growing link", patched({ canCreate: true }), false));

  it("on a new allow-list, ends the visitors no longer on it and keeps those still on it", async () => {
    const set = await newSet("Guest list");
    const link = await newLink(set, { allowedEmails: "ann@example.com, ben@example.com" });
    const ann = await publicStream(link.token, "ann@example.com");
    const ben = await publicStream(link.token, "ben@example.com");
    try {
      await following(set, [ann, ben]);
      expect((await api("PATCH", `/share-links/${link.id}`, { allowedEmails: "ann@example.com" })).status).toBe(200);
      expect(await ben.ended()).toBe(true);
      const next = await nextEvent(set);
      await ann.until((f) => f.data.data?.title === next);
      expect(sawTitle(ben.frames, next)).toBe(false);
    } finally {
      ann.close();
      ben.close();
    }
  });

  it("tells a link's visitors that its set was deleted, then ends their stream", async () => {
    const set = await newSet("Short-lived");
    const link = await newLink(set);
    const stream = await publicStream(link.token);
    try {
      await following(set, [stream]);
      expect((await api("DELETE", `/sets/${set}`)).status).toBe(200);
      expect(await stream.ended()).toBe(true);
      expect(stream.frames.at(-1)).toMatchObject({ event: "set:deleted", data: { setId: set, data: { id: set } } });
    } finally {
      stream.close();
    }
  });
});

describe("issue 43: an expired workspace session hears nothing more", () => {
  const clock = manualClock();
  let other: TestApp;
  afterAll(() => other?.stop());

  it("drops the subscriber on the first event after its session's expiry", async () => {
    other = await startApp({ overrides: { clock } });
    const { user: ivy, team } = await teamOwner(other, "ivy");
    const ws = openWs(`${other.url.replace("http", "ws")}/api/realtime/ws?teamId=${team.id}`, cookieOf(ivy));
    try {
      await ws.opened;
      other.ctx.bus.publish({ type: "set:reordered", teamId: team.id, setId: null, data: { n: 1 } });
      await ws.until((m) => m.data?.n === 1);
      // 14 days: the workspace session's lifetime (session.service.ts WS_SESSION_TTL_MS).
      clock.advance(14 * 86_400_000 + 1);
      other.ctx.bus.publish({ type: "set:reordered", teamId: team.id, setId: null, data: { n: 2 } });
      expect(await ws.closed()).toBe(1008);
      expect(ws.messages.some((m) => m.data?.n === 2)).toBe(false);
    } finally {
      ws.close();
    }
  });
});
