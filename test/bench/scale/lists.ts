/**
 * Issue 43, item 2: lists that page. One set of 10 or of 100,000 todos (10 or 10,000 top-level,
 * each with nine sub-todos at the large size), 10^3 or 10^5 users. A first server on an empty
 * data folder makes the first account (an admin) through the API and runs setup; it stops, and
 * the rest is written by SQL in the shape the server writes (the workspace session as the
 * sign-in callback writes it, the set, its todos, the users), in transactions; a second server
 * on that folder is measured, from the source.
 *
 * "Uncached" reads follow a write to the set (a todo renamed), since the list cache keeps a set's
 * answer until the set changes: the server's CPU over N (write, read) pairs, less that of N
 * writes alone, divided by N. The other rows are autocannon runs (harness.ts).
 */
import { Database } from "bun:sqlite";
import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cpuSeconds, measure, median, startServer } from "../harness.ts";
import { type Figure, quickDivisor, type ScaleArea, type Size } from "./area.ts";

const SOURCE = [process.execPath, join(import.meta.dir, "../../../src/main.ts")];
const TEAM = "bench-team";
const DAY = 86_400_000;
const PASSWORD = "bench-password-long-enough";
const SECONDS = Number(process.env.SCALE_SECONDS ?? 5);
const ROUNDS = Number(process.env.SCALE_ROUNDS ?? 3);
const FIRST = [
  "maria",
  "james",
  "li",
  "fatima",
  "olga",
  "kwame",
  "sofia",
  "noah",
  "aiko",
  "omar",
  "emma",
  "raj",
  "lucia",
  "ivan",
  "zoe",
  "mateo",
  "hana",
  "yusuf",
  "nora",
  "diego",
];
const LAST = ["garcia", "smith", "chen", "okafor", "novak", "silva", "kim", "haddad", "muller", "rossi", "tanaka", "patel", "dubois", "kowalski", "nguyen"];
/** A person typing a user's name into Admin → Users, one request per keystroke. */
const TYPED = "maria_garcia7";

type Shape = { roots: number; subs: number; users: number };
const shape = (size: Size): Shape =>
  size === "small" ? { roots: 10, subs: 0, users: 1000 } : { roots: 10_000 / quickDivisor(), subs: 9, users: 100_000 / quickDivisor() };

/** The session cookie of a workspace owner of TEAM, the set's id: written as the sign-in and the API write them. */
function fill(file: string, { roots, subs, users }: Shape): { cookie: string; setId: string; rootIds: string[] } {
  const db = new Database(file);
  db.run("PRAGMA busy_timeout = 5000");
  const now = Date.now();
  const cookie = randomBytes(32).toString("base64url");
  const setId = crypto.randomUUID();
  const rootIds: string[] = [];
  db.transaction(() => {
    db.prepare(
      "INSERT INTO ws_sessions (id, user_id, username, name, email, picture, teams, validated_at, created_at, expires_at, revoked_at) VALUES (?, 'owner', 'owner', 'Owner', 'owner@example.com', '', ?, ?, ?, ?, NULL)",
    ).run(
      createHash("sha256").update(cookie).digest("hex"),
      JSON.stringify([{ id: TEAM, name: "Bench team", role: "owner", groups: [] }]),
      now + DAY,
      now,
      now + DAY,
    );
    db.prepare("INSERT INTO todo_sets (id, team_id, user_id, name, sort_order, created_at) VALUES (?, ?, 'owner', 'Everything', 0, ?)").run(setId, TEAM, now);
    const todo = db.prepare(
      "INSERT INTO todos (id, set_id, team_id, parent_id, user_id, title, completed, sort_order, due_date, due_time, created_at, updated_at) VALUES (?, ?, ?, ?, 'owner', ?, ?, ?, ?, NULL, ?, ?)",
    );
    let at = now - (roots * (subs + 1)) / 10;
    for (let r = 0; r < roots; r++) {
      const id = crypto.randomUUID();
      rootIds.push(id);
      const stamp = Math.floor(at++);
      todo.run(
        id,
        setId,
        TEAM,
        null,
        `Todo ${r}: plan the ${LAST[r % LAST.length]} visit`,
        r % 3 === 0 ? 1 : 0,
        r,
        r % 7 === 0 ? "2030-01-15" : null,
        stamp,
        stamp,
      );
      for (let s = 0; s < subs; s++) todo.run(crypto.randomUUID(), setId, TEAM, id, `Step ${s}`, s % 2, s, null, stamp, stamp);
    }
    const user = db.prepare(
      "INSERT INTO users (id, username, email, email_verified, name, picture_url, password_hash, role, created_at, updated_at) VALUES (?, ?, ?, 1, ?, '', 'x', 'user', ?, ?)",
    );
    const cap = (s: string) => s[0]?.toUpperCase() + s.slice(1);
    for (let i = 0; i < users; i++) {
      const first = FIRST[i % FIRST.length] as string;
      const last = LAST[Math.floor(i / FIRST.length) % LAST.length] as string;
      user.run(crypto.randomUUID(), `${first}_${last}${i}`, `${first}.${last}${i}@example${i % 50}.com`, `${cap(first)} ${cap(last)}`, now, now);
    }
  })();
  db.close();
  return { cookie, setId, rootIds };
}

/** The server's CPU ms per pair of (write, read), less that of the write alone, and the reads' median wall time. */
async function uncached(
  pid: number,
  write: () => Promise<void>,
  read: () => Promise<number>,
  n: number,
): Promise<{ ms: number; cpuMs: number; bytes: number }> {
  const writesCpu = cpuSeconds(pid);
  for (let i = 0; i < n; i++) await write();
  const writeOnly = cpuSeconds(pid) - writesCpu;
  const times: number[] = [];
  let bytes = 0;
  const pairsCpu = cpuSeconds(pid);
  for (let i = 0; i < n; i++) {
    await write();
    const started = performance.now();
    bytes = await read();
    times.push(performance.now() - started);
  }
  const pairs = cpuSeconds(pid) - pairsCpu;
  return { ms: median(times), cpuMs: (Math.max(0, pairs - writeOnly) * 1000) / n, bytes };
}

async function measureSize(size: Size): Promise<Figure[]> {
  const data = mkdtempSync(join(tmpdir(), "cairn-bench-lists-"));
  const env = { CAIRN_DATA: data };
  const figures: Figure[] = [];
  try {
    // 1. The first account (the site's admin) and setup, through the API of a first server.
    const first = await startServer(env, SOURCE);
    const registered = await fetch(`${first.url}/api/auth/register`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: first.url },
      body: JSON.stringify({ username: "admin", email: "admin@example.com", password: PASSWORD, name: "Site Admin" }),
    });
    if (registered.status !== 201) throw new Error(`register: ${registered.status} ${await registered.text()}`);
    await fetch(`${first.url}/api/init/setup`, { method: "POST", headers: { origin: first.url } });
    await first.stop();

    // 2. The set, its todos and the users, by SQL.
    const s = shape(size);
    const filled = performance.now();
    const { cookie, setId, rootIds } = fill(join(data, "cairn.db"), s);
    const todos = s.roots * (s.subs + 1);
    console.log(
      `lists ${size}: ${todos.toLocaleString("en")} todos, ${s.users.toLocaleString("en")} users filled in ${((performance.now() - filled) / 1000).toFixed(1)} s`,
    );

    // 3. The measured server.
    const server = await startServer(env, SOURCE);
    const pid = server.proc.pid;
    // The admin signs in on this server (its issuer is this server's own address).
    const signedIn = await fetch(`${server.url}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.url },
      body: JSON.stringify({ login: "admin", password: PASSWORD }),
    });
    if (!signedIn.ok) throw new Error(`login: ${signedIn.status} ${await signedIn.text()}`);
    const admin = ((await signedIn.json()) as { session_token: string }).session_token;
    const member = { cookie: `cairn_ws=${cookie}`, origin: server.url };
    const list = `${server.url}/api/teams/${TEAM}/sets/${setId}/todos`;
    let renamed = 0;
    const write = async () => {
      const res = await fetch(`${server.url}/api/teams/${TEAM}/todos/${rootIds[renamed % rootIds.length]}`, {
        method: "PATCH",
        headers: { ...member, "content-type": "application/json" },
        body: JSON.stringify({ title: `Renamed ${renamed++}` }),
      });
      if (!res.ok) throw new Error(`rename: ${res.status} ${await res.text()}`);
    };
    const read = (url: string) => async () => {
      const res = await fetch(url, { headers: member });
      if (!res.ok) throw new Error(`${url}: ${res.status}`);
      return (await res.arrayBuffer()).byteLength;
    };
    const note = `${todos.toLocaleString("en")} todos`;

    // Enough pairs for the CPU time (counted in 10 ms ticks) to be hundreds of ticks: the 100,000-todo read alone is.
    const whole = await uncached(pid, write, read(list), size === "small" ? 1000 : 5);
    figures.push(
      { row: "todo list, whole set, uncached: median", value: whole.ms, unit: "ms", note },
      { row: "todo list, whole set, uncached: CPU per request", value: whole.cpuMs, unit: "ms" },
      { row: "todo list, whole set: answer size", value: whole.bytes / 1024, unit: "KB" },
    );
    const page = await uncached(pid, write, read(`${list}?limit=200`), 1000);
    figures.push(
      { row: "todo list, first page (200), uncached: median", value: page.ms, unit: "ms" },
      { row: "todo list, first page (200), uncached: CPU per request", value: page.cpuMs, unit: "ms" },
    );
    const cached = await measure(list, pid, SECONDS, ROUNDS, { headers: member, connections: 2 });
    figures.push(
      { row: "todo list, whole set, cached: median", value: cached.p50, unit: "ms", note: "2 connections" },
      { row: "todo list, whole set, cached: CPU per request", value: cached.cpuMsPerReq, unit: "ms" },
    );
    const sets = await measure(`${server.url}/api/teams/${TEAM}/sets`, pid, SECONDS, ROUNDS, { headers: member });
    figures.push({ row: "set list with counts: CPU per request", value: sets.cpuMsPerReq, unit: "ms" });

    // Each body once: a title is unique among its siblings (the set's top level).
    let made = 0;
    const bodies = () => {
      const file = join(data, `bodies-${made}.txt`);
      writeFileSync(file, `${Array.from({ length: 3000 }, () => JSON.stringify({ title: `New todo ${made++}` })).join("\n")}\n`);
      return file;
    };
    const create = await measure(list, pid, SECONDS, ROUNDS, { headers: { ...member, "content-type": "application/json" }, bodiesFile: bodies, oneUse: true });
    figures.push(
      { row: "create a todo among N siblings: CPU per request", value: create.cpuMsPerReq, unit: "ms", note: `${s.roots.toLocaleString("en")} siblings` },
      { row: "create a todo among N siblings: median", value: create.p50, unit: "ms" },
    );

    // Admin → Users, typed one keystroke at a time: each prefix asked 20 times.
    const auth = { authorization: `Bearer ${admin}` };
    const times: number[] = [];
    let asked = 0;
    const searchCpu = cpuSeconds(pid);
    for (let k = 1; k <= TYPED.length; k++)
      for (let i = 0; i < 20; i++) {
        const started = performance.now();
        const res = await fetch(`${server.url}/api/oauth/admin/users?limit=25&q=${encodeURIComponent(TYPED.slice(0, k))}`, { headers: auth });
        if (!res.ok) throw new Error(`search: ${res.status} ${await res.text()}`);
        await res.arrayBuffer();
        times.push(performance.now() - started);
        asked++;
      }
    figures.push(
      { row: "admin user search, per keystroke: median", value: median(times), unit: "ms", note: `${s.users.toLocaleString("en")} users, "${TYPED}" typed` },
      { row: "admin user search, per keystroke: CPU", value: ((cpuSeconds(pid) - searchCpu) * 1000) / asked, unit: "ms" },
    );
    await server.stop();
  } finally {
    rmSync(data, { recursive: true, force: true });
  }
  return figures;
}

export const lists: ScaleArea = {
  name: "lists",
  sizes: { small: "10 todos in one set, 10 siblings, 10^3 users", large: "100,000 todos in one set, 10,000 siblings, 100,000 users" },
  measure: measureSize,
};
