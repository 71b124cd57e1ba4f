/**
 * Issue 43, item 1: purges, grants and the database file, at 10^3 and 10^6 grants with their
 * tokens. The token paths' CPU per request is measured on a server (from the source: a built
 * dist/cairn may predate the schema), and the purge job in this process, on a context booted over
 * the same data folder, where the longest turn of its event loop is observed directly: a chain of
 * setImmediate callbacks notes the longest gap between two of its turns while the purge runs.
 */
import { dlopen, FFIType, ptr } from "bun:ffi";
import { Database } from "bun:sqlite";
import { randomBytes } from "node:crypto";
import { rmSync, statSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { bootContext } from "../../../src/boot.ts";
import { loadConfig } from "../../../src/config/config.ts";
import type { AppContext } from "../../../src/context/context.ts";
import { closeDatabase } from "../../../src/db/client.ts";
import { purgeExpired } from "../../../src/jobs/purge.ts";
import { GRANT_OUTLIVES_ITS_WINDOW_MS, REFRESH_TOKEN_TTL_MS } from "../../../src/oauth/tokens/lifetimes.ts";
import { createTokenIds, newToken, type TokenIds } from "../../../src/oauth/tokens/token-key.ts";
import { createSecretBox, sha256Hex } from "../../../src/shared/crypto.ts";
import { createLogger } from "../../../src/shared/log.ts";
import { measure, startServer } from "../harness.ts";
import { type Figure, quickDivisor, type ScaleArea, type Size } from "./area.ts";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const SECONDS = Number(process.env.BENCH_SECONDS ?? (process.env.SCALE_QUICK ? 2 : 5));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** One-use refresh tokens for the refresh rounds (a warm-up and ROUNDS), at both sizes, spread over the grants. */
const REFRESH_BODIES = process.env.SCALE_QUICK ? 12_000 : 60_000;
const SOURCE = [process.execPath, join(import.meta.dir, "../../../src/main.ts")];
const SECRET = randomBytes(32).toString("base64url");
const SCOPES = '["openid","profile","offline_access"]';

type World = { dir: string; url: string; clientId: string; userId: string; basic: string };

/** A server on a fresh folder with one user and one confidential client, made through the API. */
async function startWorld() {
  const server = await startServer({ CAIRN_SECRET: SECRET }, SOURCE);
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(server.url + path, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.url, ...headers },
      body: JSON.stringify(body),
    }).then((r) => r.json());
  const { session_token, user } = await post("/api/auth/register", { username: "bench", email: "bench@example.com", password: "bench password 123" });
  const app = await post(
    "/api/oauth/me/clients",
    { name: "Bench", redirect_uris: [{ uri: "https://rp.example.com/cb" }] },
    { authorization: `Bearer ${session_token}` },
  );
  const basic = `Basic ${Buffer.from(`${app.client_id}:${app.client_secret}`).toString("base64")}`;
  const world: World = { dir: join(server.dir, "data"), url: server.url, clientId: app.client_id, userId: user.id, basic };
  return { server, world };
}

/** Writes rows in the shapes the token endpoint writes (tokens.service.ts), in one transaction with prepared statements. */
function writer(db: Database, w: World, ids: TokenIds) {
  const grant = db.prepare(
    "INSERT INTO oauth_grants (id, client_id, user_id, scopes, sid, auth_time, amr, acr, created_at, refresh_expires_at, revoked_at, dpop_jkt, resources, lineage) VALUES (?, ?, ?, ?, NULL, ?, '[\"pwd\"]', 'pwd', ?, ?, NULL, NULL, '[]', '[]')",
  );
  const access = db.prepare(
    "INSERT INTO access_tokens (token_hash, grant_id, client_id, user_id, scopes, created_at, expires_at, jkt, audience) VALUES (?, ?, ?, ?, ?, ?, ?, NULL, '[]')",
  );
  const refresh = db.prepare(
    "INSERT INTO refresh_tokens (token_hash, grant_id, client_id, created_at, expires_at, superseded_at) VALUES (?, ?, ?, ?, ?, NULL)",
  );
  const hash = () => sha256Hex(randomBytes(32).toString("base64url"));
  return {
    grant(created: number, refreshable: boolean, prefix = ""): string {
      const id = prefix + Bun.randomUUIDv7("hex", created).replaceAll("-", "");
      grant.run(id, w.clientId, w.userId, SCOPES, Math.floor(created / 1000), created, refreshable ? created + REFRESH_TOKEN_TTL_MS : null);
      return id;
    },
    access(grantId: string, created: number, value = false): string | null {
      const row = (h: string) => Number(access.run(h, grantId, w.clientId, w.userId, SCOPES, created, created + HOUR).lastInsertRowid);
      return value ? newToken(ids, "access", row) : (row(hash()), null);
    },
    refresh(grantId: string, created: number, expires: number, value = false): string | null {
      const row = (h: string) => Number(refresh.run(h, grantId, w.clientId, created, expires).lastInsertRowid);
      return value ? newToken(ids, "refresh", row) : (row(hash()), null);
    },
  };
}

/**
 * `n` grants signed in over the last 29 days, each with its current refresh token; the access
 * tokens of the last hour (a day's refreshes of every grant, spread: n / 24), all live at `now`.
 * Answers an access token for introspection and userinfo, and one-use refresh tokens.
 */
function fill(db: Database, w: World, n: number, now: number) {
  const write = writer(db, w, createTokenIds(createSecretBox(SECRET).derive("token ids")));
  const bodies: string[] = [];
  let token = "";
  db.transaction(() => {
    for (let i = 0; i < n; i++) {
      const created = now - 29 * DAY + Math.floor((i / n) * (29 * DAY - 2 * HOUR));
      const id = write.grant(created, true);
      write.refresh(id, created, created + REFRESH_TOKEN_TTL_MS);
      if (i % 24 === 0) write.access(id, now - HOUR + Math.floor((i / n) * HOUR) + 1000);
      // The one-use refresh tokens of the measurement, on grants spread over the whole range.
      for (let k = i; k < REFRESH_BODIES; k += n)
        bodies.push(`grant_type=refresh_token&refresh_token=${write.refresh(id, now, created + REFRESH_TOKEN_TTL_MS, true)}`);
      if (i === n - 1) token = write.access(id, now, true) as string;
    }
  })();
  return { token, bodies };
}

/** Grants whose last token ended: refreshable ones past their window, others signed in hours ago; with their tokens, all expired. */
function fillEnded(db: Database, w: World, n: number, now: number): void {
  const write = writer(db, w, createTokenIds(createSecretBox(SECRET).derive("token ids")));
  db.transaction(() => {
    for (let i = 0; i < n; i++) {
      const refreshable = i % 2 === 0;
      const created = refreshable
        ? now - REFRESH_TOKEN_TTL_MS - GRANT_OUTLIVES_ITS_WINDOW_MS - DAY * (1 + (i % 20))
        : now - GRANT_OUTLIVES_ITS_WINDOW_MS - HOUR;
      const id = write.grant(created, refreshable, "ended-");
      write.access(id, created);
      if (refreshable) write.refresh(id, created, created + REFRESH_TOKEN_TTL_MS);
    }
  })();
}

const cpuMs = () => {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
};

/**
 * The CPU of this thread alone (clock_gettime(CLOCK_THREAD_CPUTIME_ID)): what a turn of the event
 * loop cost it. The process's figure also counts the runtime's other threads (the garbage
 * collector's, the fsync's), which run beside the loop without holding it. Process CPU where libc
 * cannot be opened.
 */
const loopCpuMs: () => number = (() => {
  try {
    const libc = dlopen("libc.so.6", { clock_gettime: { args: [FFIType.i32, FFIType.ptr], returns: FFIType.i32 } });
    const time = new BigInt64Array(2);
    const at = ptr(time);
    const CLOCK_THREAD_CPUTIME_ID = 3;
    return () => (libc.symbols.clock_gettime(CLOCK_THREAD_CPUTIME_ID, at), Number(time[0]) * 1000 + Number(time[1]) / 1e6);
  } catch {
    return cpuMs;
  }
})();

/**
 * Runs `work` while a chain of setImmediate callbacks notes each turn of the event loop between two
 * of its own: the longest by the CPU the loop's thread spent in it (what the purge costs the loop;
 * on a shared machine a turn's wall time also counts the time others had the core), the longest by
 * the whole process's CPU, and the longest by wall time.
 */
async function longestTurn(work: () => Promise<unknown>): Promise<{ longest: number; processCpu: number; wall: number; total: number }> {
  let last = performance.now();
  let lastCpu = loopCpuMs();
  let lastProcess = cpuMs();
  let longest = 0;
  let processCpu = 0;
  let wall = 0;
  let running = true;
  const tick = () => {
    const at = performance.now();
    const cpu = loopCpuMs();
    const all = cpuMs();
    wall = Math.max(wall, at - last);
    longest = Math.max(longest, cpu - lastCpu);
    processCpu = Math.max(processCpu, all - lastProcess);
    last = at;
    lastCpu = cpu;
    lastProcess = all;
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  const started = performance.now();
  await work();
  const total = performance.now() - started;
  running = false;
  return { longest, processCpu, wall, total };
}

/** What the machine was doing meanwhile, for the notes: wall times stretch with its load. */
const load = () => `load ${loadavg()[0]?.toFixed(1)}`;

const pragma = (db: Database, name: string) => Object.values(db.query(`PRAGMA ${name}`).get() as Record<string, number>)[0] as number;

/** The file on disk once its log is copied back (a checkpoint, as the server's own every 1,000 pages), and its free pages. */
function fileNow(ctx: AppContext): { mb: number; free: number } {
  ctx.db.$client.run("PRAGMA wal_checkpoint(TRUNCATE)");
  return { mb: statSync(ctx.db.$client.filename).size / 1e6, free: pragma(ctx.db.$client, "freelist_count") };
}

/** The smallest of `runs` figures: on a shared machine, the run least disturbed by others. */
const best = (runs: { longest: number; processCpu: number; wall: number; total: number }[]) => ({
  longest: Math.min(...runs.map((r) => r.longest)),
  processCpu: Math.min(...runs.map((r) => r.processCpu)),
  wall: Math.min(...runs.map((r) => r.wall)),
  total: Math.min(...runs.map((r) => r.total)),
});

/** The purge job's figures, on a context of this process over the stopped server's folder and a clock set by hand. */
async function purgeFigures(w: World, n: number, now: number): Promise<Figure[]> {
  let at = now;
  const config = loadConfig({ CAIRN_DATA: w.dir, CAIRN_SECRET: SECRET, PORT: "0", CAIRN_ISSUER: w.url });
  const ctx = await bootContext(config, { clock: { now: () => at }, log: createLogger("silent") });
  const figures: Figure[] = [];
  try {
    const db = ctx.db.$client;
    await purgeExpired(ctx); // its statements are prepared once per process: the job's steady state follows
    const idleRuns = [];
    for (let run = 0; run < 3; run++) idleRuns.push(await longestTurn(() => purgeExpired(ctx)));
    const idle = best(idleRuns);
    figures.push({
      row: "purge job, nothing due: longest event-loop turn",
      value: idle.longest,
      unit: "ms",
      note: `loop thread CPU, best of 3; process ${idle.processCpu.toFixed(1)} ms; wall ${idle.wall.toFixed(1)} ms, ${load()}; ${idle.total.toFixed(0)} ms in all`,
    });

    // The fill's hour of access tokens has ended (those the refresh rounds issued have not); each
    // later run gets another hour's worth. SQLite copies its log into the file every 1,000 pages,
    // in the COMMIT that crosses them: measured with that, and without it (checkpoints deferred).
    at = now + HOUR + 1000;
    const hourly = Math.ceil(n / 24);
    const grantId = (db.query("SELECT id FROM oauth_grants ORDER BY rowid DESC LIMIT 1").get() as { id: string }).id;
    const write = writer(db, w, createTokenIds(createSecretBox(SECRET).derive("token ids")));
    const hourRuns = async (autocheckpoint: number, first: boolean) => {
      const runs = [];
      let deleted = 0;
      for (let run = 0; run < 3; run++) {
        if (run > 0 || !first) db.transaction(() => Array.from({ length: hourly }, (_, i) => write.access(grantId, at - 2 * HOUR + i)))();
        db.run("PRAGMA wal_checkpoint(TRUNCATE)");
        db.run(`PRAGMA wal_autocheckpoint = ${autocheckpoint}`);
        runs.push(
          await longestTurn(async () => {
            deleted = (await purgeExpired(ctx)).deleted;
          }),
        );
        db.run("PRAGMA wal_autocheckpoint = 1000");
      }
      return { ...best(runs), deleted };
    };
    const hour = await hourRuns(1000, true);
    const own = await hourRuns(0, false);
    figures.push({
      row: "purge with an hour's access tokens due: longest turn",
      value: hour.longest,
      unit: "ms",
      note: `loop thread CPU, best of 3; process ${hour.processCpu.toFixed(1)} ms; wall ${hour.wall.toFixed(1)} ms, ${load()}; ${own.longest.toFixed(1)} ms CPU without SQLite's checkpoints`,
    });
    figures.push({ row: "purge with an hour's access tokens due: total", value: hour.total, unit: "ms", note: `${hourly} due, ${hour.deleted} deleted` });

    const ended = Math.ceil(n / 10);
    fillEnded(db, w, ended, at);
    // The fill's own log is copied back first, as before the hour's runs: else the purge's first commit pays for it.
    db.run("PRAGMA wal_checkpoint(TRUNCATE)");
    const endedRun = await longestTurn(() => purgeExpired(ctx));
    const left = (db.query("SELECT count(*) AS n FROM oauth_grants WHERE id LIKE 'ended-%'").get() as { n: number }).n;
    figures.push({
      row: "grants after their last token ended: rows left",
      value: left,
      unit: "count",
      note: `of ${ended}; longest turn ${endedRun.longest.toFixed(1)} ms of the loop's CPU, ${endedRun.processCpu.toFixed(1)} ms of the process's, ${endedRun.wall.toFixed(1)} ms wall`,
    });

    // Steady load: each cycle an hour's worth of sign-ins and tokens, then the purge once they are over.
    const sizes: string[] = [];
    let last = fileNow(ctx);
    for (let cycle = 0; cycle < 5; cycle++) {
      const write = writer(db, w, createTokenIds(createSecretBox(SECRET).derive("token ids")));
      db.transaction(() => {
        for (let i = 0; i < hourly; i++) {
          const id = write.grant(at + i, false, "cycle-");
          write.access(id, at + i);
        }
      })();
      at += GRANT_OUTLIVES_ITS_WINDOW_MS + HOUR;
      await purgeExpired(ctx);
      last = fileNow(ctx);
      sizes.push(last.mb.toFixed(1));
    }
    figures.push({
      row: "database file after fill+purge cycles: size",
      value: last.mb,
      unit: "MB",
      note: `after each of 5 cycles of ${hourly} grants: ${sizes.join(", ")} MB`,
    });
    figures.push({ row: "database file after fill+purge cycles: free pages", value: last.free, unit: "count" });
  } finally {
    closeDatabase(ctx.db);
  }
  return figures;
}

export const purges: ScaleArea = {
  name: "purges",
  sizes: { small: "10^3 grants with tokens", large: `${10 ** 6 / quickDivisor()} grants with tokens` },
  async measure(size: Size): Promise<Figure[]> {
    const n = size === "small" ? 1_000 : 10 ** 6 / quickDivisor();
    const { server, world } = await startWorld();
    const figures: Figure[] = [];
    const now = Date.now();
    try {
      const db = new Database(join(world.dir, "cairn.db"));
      db.run("PRAGMA busy_timeout = 5000");
      const filled = performance.now();
      const { token, bodies } = fill(db, world, n, now);
      // One huge transaction sits in the WAL; a serving instance checkpoints every 1,000 pages.
      db.run("PRAGMA wal_checkpoint(TRUNCATE)");
      db.close();
      console.log(`  ${size}: ${n} grants filled in ${((performance.now() - filled) / 1000).toFixed(1)} s`);

      const pid = server.proc.pid;
      const form = { "content-type": "application/x-www-form-urlencoded", authorization: world.basic };
      const introspect = await measure(`${world.url}/api/oauth/introspect`, pid, SECONDS, ROUNDS, { method: "POST", headers: form, body: `token=${token}` });
      figures.push({ row: "introspection: CPU per request", value: introspect.cpuMsPerReq, unit: "ms", note: `${introspect.rps.toFixed(0)} req/s` });
      const userinfo = await measure(`${world.url}/api/oauth/userinfo`, pid, SECONDS, ROUNDS, { headers: { authorization: `Bearer ${token}` } });
      figures.push({ row: "userinfo: CPU per request", value: userinfo.cpuMsPerReq, unit: "ms", note: `${userinfo.rps.toFixed(0)} req/s` });
      let slice = 0;
      const perRun = Math.floor(bodies.length / (ROUNDS + 1));
      const bodiesFile = () => {
        const file = join(world.dir, `refresh-${slice}.txt`);
        writeFileSync(file, bodies.slice(slice * perRun, ++slice * perRun).join("\n"));
        return file;
      };
      const refresh = await measure(`${world.url}/api/oauth/token`, pid, SECONDS, ROUNDS, { headers: form, bodiesFile, oneUse: true });
      figures.push({
        row: "refresh: CPU per request",
        value: refresh.cpuMsPerReq,
        unit: "ms",
        note: `${refresh.rps.toFixed(0)} req/s, ${refresh.errors} errors`,
      });
    } finally {
      // Stopped, its folder kept: the purge runs over it next.
      server.proc.kill("SIGTERM");
      await server.proc.exited;
    }
    try {
      const restart = await startServer({ CAIRN_SECRET: SECRET, CAIRN_DATA: world.dir }, SOURCE);
      figures.push({ row: "start-up over the filled database: first answer", value: restart.startMs, unit: "ms" });
      restart.proc.kill("SIGTERM");
      await restart.proc.exited;
      rmSync(restart.dir, { recursive: true, force: true });
      figures.push(...(await purgeFigures(world, n, now)));
    } finally {
      rmSync(server.dir, { recursive: true, force: true });
    }
    return figures;
  },
};
