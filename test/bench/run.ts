/**
 * Benchmarks on loopback (ARCHITECTURE section 6): autocannon with 10 connections, a warm-up and
 * the median of three rounds, plus cold start and idle RSS of the executable. Bounded in time:
 * BENCH_SECONDS per round (default 10). Run with `npm run bench` (after `npm run build` to
 * measure dist/cairn; otherwise the source is measured).
 */
import { existsSync } from "node:fs";
import { BINARY, cairnCommand, placement, measure, median, rssMb, startServer } from "./harness.ts";

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const rows: string[][] = [];
const fmt = (n: number, digits = 0) => n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });

console.log(`measuring ${cairnCommand().join(" ")}: ${rounds} rounds of ${seconds} s, 10 connections, ${placement()}\n`);

const server = await startServer();
try {
  const row = (label: string, r: Awaited<ReturnType<typeof measure>>) =>
    rows.push([label, fmt(r.rps), fmt(r.p50, 1), fmt(r.p99, 1), fmt(r.cpuMsPerReq, 3), String(r.errors), fmt(r.stolenPct)]);
  for (const path of ["/healthz", "/api/init/status", "/api/init/config"])
    row(`GET ${path}`, await measure(server.url + path, server.proc.pid, seconds, rounds));

  // Identity: the cost of a password sign-in (argon2id) and of validating a session per request.
  const credentials = { username: "bench", email: "bench@example.com", password: "bench password 123" };
  const registered = await fetch(`${server.url}/api/auth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(credentials),
  });
  const token = (await registered.json()).session_token as string;
  row(
    "GET /api/auth/session (Bearer session JWT)",
    await measure(`${server.url}/api/auth/session`, server.proc.pid, seconds, rounds, { headers: { authorization: `Bearer ${token}` } }),
  );
  row(
    "POST /api/auth/login (argon2id 19 MiB, t=2)",
    await measure(`${server.url}/api/auth/login`, server.proc.pid, seconds, rounds, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ login: "bench", password: credentials.password }),
    }),
  );
} finally {
  await server.stop();
}

if (existsSync(BINARY)) {
  const starts: number[] = [];
  const rss: number[] = [];
  for (let i = 0; i < 5; i++) {
    const s = await startServer();
    starts.push(s.startMs);
    await Bun.sleep(2000); // idle: after start-up work has settled
    rss.push(rssMb(s.proc.pid));
    await s.stop();
  }
  rows.push(["cold start of dist/cairn to first answer (ms, median of 5)", fmt(median(starts), 0), "", "", "", "", ""]);
  rows.push(["idle RSS of dist/cairn (MB, median of 5)", fmt(median(rss), 1), "", "", "", "", ""]);
} else {
  console.log("dist/cairn not built: skipping cold start and idle RSS (run npm run build first)\n");
}

const header = ["what", "req/s (or value)", "p50 ms", "p99 ms", "CPU ms/req", "errors", "stolen %"];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] as number)).join(" | ")} |`;
console.log(line(header));
console.log(line(widths.map((w) => "-".repeat(w))));
for (const row of rows) console.log(line(row));
