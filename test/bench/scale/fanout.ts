/**
 * Issue 43, item 3: one realtime event fanned out to 10 and to 5,000 subscribers, over each way
 * of listening: member WebSockets, member Server-Sent Events and a share link's public SSE. The
 * server runs from the source; its workspace sessions are written into its database by SQL in
 * the shape the sign-in callback writes (session.service.ts finishLogin), each subscriber its own
 * session, and the set and the link are made through the API. The clients are opened from this
 * process (WebSocket: Bun's client; SSE: plain TCP sockets, since fetch caps its connections),
 * one way of listening at a time. A burst of writes (one todo completed and reopened in turn)
 * then goes out, each waited for until every subscriber has it; the server's CPU time (user and
 * kernel, /proc) over the burst, less that of the same burst to a single subscriber, divided by
 * events and the other subscribers, is the cost of reaching one subscriber; what the connections
 * cost with no event at all (heartbeats every 25 s), measured just after, is taken out of it and
 * shown on its own. The kernel's part is mostly the socket write (and, on loopback, the receiving
 * side's TCP work it runs on the server's behalf), one per subscriber and event: a bare Bun
 * server doing nothing but those writes (fanout-floor.ts) is measured alike, as the floor.
 */
import { Database } from "bun:sqlite";
import { createHash, randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Socket } from "bun";
import { freePort, pinned, processTree, startServer } from "../harness.ts";
import { type Figure, quickDivisor, type ScaleArea, type Size } from "./area.ts";

const SOURCE = [process.execPath, join(import.meta.dir, "../../../src/main.ts")];
const TEAM = "bench-team";
const DAY = 86_400_000;
/** Events per burst: enough at 5,000 subscribers for the fan-out to stand well above the noise of the writes. */
const EVENTS: Record<Size, number> = { small: 300, large: 100 };
const MARKER = "event: todo:updated";

/** User and kernel CPU seconds of the server and its workers so far (/proc/<pid>/stat utime, stime). */
function cpu(pid: number): { user: number; kernel: number } {
  let user = 0;
  let kernel = 0;
  for (const p of processTree(pid)) {
    try {
      const fields = readFileSync(`/proc/${p}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
      user += Number(fields[11]) / 100;
      kernel += Number(fields[12]) / 100;
    } catch {
      // exited meanwhile
    }
  }
  return { user, kernel };
}

/** `n` member sessions of the team, and the owner's, written as the sign-in callback writes them; answers their cookies. */
function seedSessions(dir: string, n: number): { owner: string; members: string[] } {
  const db = new Database(join(dir, "data", "cairn.db"));
  db.run("PRAGMA busy_timeout = 5000");
  const now = Date.now();
  const insert = db.prepare(
    "INSERT INTO ws_sessions (id, user_id, username, name, email, picture, teams, validated_at, created_at, expires_at, revoked_at) VALUES (?, ?, ?, ?, ?, '', ?, ?, ?, ?, NULL)",
  );
  const session = (userId: string, role: "owner" | "member") => {
    const cookie = randomBytes(32).toString("base64url");
    const teams = JSON.stringify([{ id: TEAM, name: "Bench team", role, groups: [] }]);
    // Confirmed for the bench's day: these users exist only here, and the once-a-minute
    // confirmation with the IdP would end their sessions.
    insert.run(createHash("sha256").update(cookie).digest("hex"), userId, userId, `User ${userId}`, `${userId}@example.com`, teams, now + DAY, now, now + DAY);
    return cookie;
  };
  const seeded = db.transaction(() => ({ owner: session("owner", "owner"), members: Array.from({ length: n }, (_, i) => session(`viewer-${i}`, "member")) }))();
  db.close();
  return seeded;
}

/** A listener's count of events received. */
type Clients = { received(): number; close(): void };

/** WebSockets to `url`, opened 100 at a time with each of `headers`; each text frame of a `todo:updated` counts. */
async function openWebSockets(url: string, headers: Record<string, string>[]): Promise<Clients> {
  const BunWebSocket = WebSocket as unknown as new (url: string, options: Bun.WebSocketOptions) => WebSocket;
  let received = 0;
  const sockets: WebSocket[] = [];
  const open = (h: Record<string, string>) =>
    new Promise<WebSocket>((resolve, reject) => {
      const ws = new BunWebSocket(url, { headers: h });
      ws.onopen = () => resolve(ws);
      ws.onerror = () => reject(new Error("a WebSocket failed to open"));
      ws.onmessage = (e) => {
        if (String(e.data).includes('"todo:updated"')) received++;
      };
    });
  for (let i = 0; i < headers.length; i += 100) sockets.push(...(await Promise.all(headers.slice(i, i + 100).map(open))));
  return {
    received: () => received,
    close: () => {
      for (const ws of sockets) ws.close();
    },
  };
}

/** SSE streams over plain TCP (HTTP/1.1 by hand), 100 at a time; each `todo:updated` frame counts. */
async function openStreams(base: string, path: string, headers: string[]): Promise<Clients> {
  const { hostname, port } = new URL(base);
  let received = 0;
  const sockets: Socket<{ tail: string }>[] = [];
  const open = (header: string) =>
    new Promise<Socket<{ tail: string }>>((resolve, reject) => {
      let ready = false;
      void Bun.connect<{ tail: string }>({
        hostname,
        port: Number(port),
        data: { tail: "" },
        socket: {
          open: (s) => void s.write(`GET ${path} HTTP/1.1\r\nhost: ${hostname}:${port}\r\n${header}\r\n`),
          data(s, chunk) {
            // A frame cut between two reads is found across the seam.
            const text = s.data.tail + chunk.toString();
            if (!ready && !text.startsWith("HTTP/1.1 200")) reject(new Error(`stream refused: ${text.slice(0, 60)}`));
            if (!ready && text.includes(": connected")) {
              ready = true;
              resolve(s);
            }
            for (let at = text.indexOf(MARKER); at >= 0; at = text.indexOf(MARKER, at + 1)) if (at + MARKER.length > s.data.tail.length) received++;
            s.data.tail = text.slice(-MARKER.length);
          },
          error: (_s, e) => reject(e),
        },
      }).catch(reject);
    });
  for (let i = 0; i < headers.length; i += 100) sockets.push(...(await Promise.all(headers.slice(i, i + 100).map(open))));
  return {
    received: () => received,
    close: () => {
      for (const s of sockets) s.end();
    },
  };
}

type Burst = { user: number; kernel: number; seconds: number; missing: number };

/** `events` events (`fire`), each waited for until `clients` (if any) all have it; the server's CPU over them. */
async function burst(pid: number, events: number, fire: () => Promise<unknown>, clients: Clients | null, n: number): Promise<Burst> {
  const before = cpu(pid);
  const started = performance.now();
  const start = clients?.received() ?? 0;
  for (let i = 1; i <= events; i++) {
    await fire();
    const deadline = Date.now() + 10_000;
    while (clients && clients.received() < start + i * n && Date.now() < deadline) await Bun.sleep(1);
  }
  const after = cpu(pid);
  const missing = clients ? Math.max(0, start + events * n - clients.received()) : 0;
  return { user: after.user - before.user, kernel: after.kernel - before.kernel, seconds: (performance.now() - started) / 1000, missing };
}

/** The server's CPU while `seconds` pass with no event: its idle cost (a subscriber's heartbeats). */
async function idle(pid: number, seconds: number): Promise<Burst> {
  if (seconds === 0) return { user: 0, kernel: 0, seconds, missing: 0 };
  const before = cpu(pid);
  await Bun.sleep(seconds * 1000);
  const after = cpu(pid);
  return { user: after.user - before.user, kernel: after.kernel - before.kernel, seconds, missing: 0 };
}

/** A warm-up burst and a measured one to the `n` clients `open` makes, and their idle cost over `idleSeconds` after. */
async function measured(pid: number, events: number, fire: () => Promise<unknown>, open: (n: number) => Promise<Clients>, n: number, idleSeconds = 0) {
  const clients = await open(n);
  try {
    await burst(pid, Math.ceil(events / 10), fire, clients, n);
    return { run: await burst(pid, events, fire, clients, n), idle: await idle(pid, idleSeconds) };
  } finally {
    clients.close();
    await Bun.sleep(500);
  }
}

/**
 * The figures of one way of listening: a burst to all `n` clients and, at the large size, the
 * same burst to one of them, paced alike (each event waited for), for what the write and its
 * pacing cost by themselves. At 10 subscribers the fan-out is within the noise of the write
 * (its CPU varies by a tenth from one burst to the next): per subscriber is read at 5,000.
 */
async function figuresOf(
  size: Size,
  way: string,
  pid: number,
  fire: () => Promise<unknown>,
  open: (n: number) => Promise<Clients>,
  n: number,
): Promise<Figure[]> {
  const events = EVENTS[size];
  const { run, idle: quiet } = await measured(pid, events, fire, open, n, size === "large" ? 5 : 0);
  const note = `${events} events, ${n} subscribers${run.missing ? `, ${run.missing} deliveries missing` : ""}`;
  const figures: Figure[] = [{ row: `one event, ${way}: server CPU per event`, value: ((run.user + run.kernel) * 1000) / events, unit: "ms", note }];
  if (size === "small") return figures;
  const alone = (await measured(pid, events, fire, open, 1)).run;
  // What the burst cost above the same burst to one subscriber, less what the subscribers cost
  // meanwhile with no event at all (their heartbeats, at the rate measured just after the burst).
  const fanOut = (part: "user" | "kernel") => run[part] - alone[part] - (quiet[part] * run.seconds) / quiet.seconds;
  const perSubscriber = (seconds: number) => (seconds * 1e6) / (events * (n - 1));
  figures.push(
    { row: `one event, ${way}: server CPU per subscriber`, value: perSubscriber(fanOut("user") + fanOut("kernel")), unit: "µs" },
    { row: `one event, ${way}: of which user (the server's code)`, value: perSubscriber(fanOut("user")), unit: "µs" },
    { row: `one event, ${way}: of which kernel (socket writes)`, value: perSubscriber(fanOut("kernel")), unit: "µs" },
    {
      row: `no event, ${way} subscribers connected: server CPU per second`,
      value: ((quiet.user + quiet.kernel) * 1000) / quiet.seconds,
      unit: "ms",
      note: "heartbeats and timers",
    },
  );
  return figures;
}

async function measureCairn(size: Size, n: number): Promise<Figure[]> {
  const server = await startServer({}, SOURCE);
  try {
    const pid = server.proc.pid;
    const json = { "content-type": "application/json", origin: server.url };
    if (!(await (await fetch(`${server.url}/api/init/status`)).json()).configured)
      await fetch(`${server.url}/api/init/setup`, { method: "POST", headers: json });
    const { owner, members } = seedSessions(server.dir, n);
    const api = async (method: string, path: string, body: unknown) => {
      const res = await fetch(`${server.url}/api/teams/${TEAM}${path}`, {
        method,
        headers: { ...json, cookie: `cairn_ws=${owner}` },
        body: JSON.stringify(body),
      });
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
      return res.json() as Promise<any>;
    };
    const setId: string = (await api("POST", "/sets", { name: "Fan-out" })).set.id;
    const todoId: string = (await api("POST", `/sets/${setId}/todos`, { title: "Toggled" })).todo.id;
    const { token } = (await api("POST", `/sets/${setId}/share-links`, {})).link;
    // The event: one todo completed and reopened in turn, a write of the same cost every time.
    let completed = false;
    const fire = () => api("PATCH", `/todos/${todoId}`, { completed: (completed = !completed) });
    const ws = `${server.url.replace("http", "ws")}/api/realtime/ws?teamId=${TEAM}`;
    const cookies = (k: number) => members.slice(0, k).map((c) => `cairn_ws=${c}`);
    const ways: [string, (k: number) => Promise<Clients>][] = [
      [
        "WebSocket",
        (k) =>
          openWebSockets(
            ws,
            cookies(k).map((cookie) => ({ cookie, origin: server.url })),
          ),
      ],
      [
        "member SSE",
        (k) =>
          openStreams(
            server.url,
            `/api/realtime/sse?teamId=${TEAM}`,
            cookies(k).map((c) => `cookie: ${c}\r\n`),
          ),
      ],
      [
        "share-link SSE",
        (k) =>
          openStreams(
            server.url,
            `/api/shared/${token}/events`,
            cookies(k).map(() => ""),
          ),
      ],
    ];
    const figures: Figure[] = [];
    for (const [way, open] of ways) figures.push(...(await figuresOf(size, way, pid, fire, open, n)));
    return figures;
  } finally {
    await server.stop();
  }
}

/** The same WebSocket fan-out from a bare Bun server (fanout-floor.ts): what one socket write costs here. */
async function measureFloor(size: Size, n: number): Promise<Figure[]> {
  const port = freePort();
  const url = `http://127.0.0.1:${port}`;
  const proc = Bun.spawn(pinned("server", [process.execPath, join(import.meta.dir, "fanout-floor.ts"), String(port)]), { stdout: "ignore", stderr: "inherit" });
  try {
    const up = () =>
      fetch(url).then(
        (r) => r.ok,
        () => false,
      );
    for (let tries = 0; ; tries++) {
      if (await up()) break;
      if (tries > 2000) throw new Error("the bare server did not start");
      await Bun.sleep(5);
    }
    const fire = () => fetch(`${url}/fire`, { method: "POST" }).then((r) => r.text());
    const open = (k: number) =>
      openWebSockets(
        `${url.replace("http", "ws")}/ws`,
        Array.from({ length: k }, () => ({})),
      );
    return await figuresOf(size, "bare Bun WebSocket server (the floor)", proc.pid, fire, open, n);
  } finally {
    proc.kill();
    await proc.exited;
  }
}

export const fanout: ScaleArea = {
  name: "fanout",
  sizes: { small: "10 subscribers", large: `${(5000 / quickDivisor()).toLocaleString("en-US")} subscribers` },
  async measure(size) {
    const n = size === "small" ? 10 : Math.max(10, 5000 / quickDivisor());
    return [...(await measureCairn(size, n)), ...(await measureFloor(size, n))];
  },
};
