/**
 * bench:oauth on PostgreSQL (issue 46): `npm run bench:oauth -- --store postgres`, or
 * BENCH_STORE=postgres. A private cluster (test/helpers/postgres.ts) with one database, `cairn
 * serve` on it (CAIRN_DATABASE_URL, CAIRN_SECRET) and another on a SQLite file, both prepared alike
 * (oauth-scenarios.ts); each scenario's rounds taken in turn on the two, so a slow spell of the
 * machine weighs on both, and the ratio PostgreSQL / SQLite. CPU per request is Cairn's and, apart,
 * the cluster's: the postmaster and every process under it (the connections' backends, the WAL
 * writer, the checkpointer). Then introspection on two instances of the one database against one.
 * BENCH_SECONDS (5 here), BENCH_ROUNDS (3), BENCH_ONE_USE (60,000), BENCH_ONLY.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { readSecretFile } from "../../src/keys/instance-secret.ts";
import { pgSkipReason, startPostgres } from "../helpers/postgres.ts";
import { alternate, cairnCommand, load, placement, printTable, type Round, type Server, startServer } from "./harness.ts";
import { CODE_GRANT, INTROSPECTION, type OAuthTarget, prepareOAuth, wanted } from "./oauth-scenarios.ts";
import { postgresSeedDb, sqliteSeedDb } from "./oauth-seed.ts";

const STORES = ["sqlite", "postgres"] as const;
export type Store = (typeof STORES)[number];

/** `--store postgres` (or `--store=postgres`), else BENCH_STORE, else sqlite. */
export function storeFromArgs(argv = process.argv): Store {
  const at = argv.indexOf("--store");
  const given = at >= 0 ? argv[at + 1] : (argv.find((a) => a.startsWith("--store="))?.slice(8) ?? process.env.BENCH_STORE ?? "sqlite");
  if (!STORES.includes(given as Store)) throw new Error(`--store must be sqlite or postgres, got ${given}`);
  return given as Store;
}

const fmt = (n: number, d = 0) => n.toLocaleString("en-US", { maximumFractionDigits: d, minimumFractionDigits: d });
const us = (ms: number | undefined) => fmt((ms ?? 0) * 1000);
const load1 = () => fmt(loadavg()[0] as number, 1);

/** The cluster's postmaster, from its pid file: its process tree is the whole server. */
async function postmaster(url: string): Promise<{ pid: number; version: string }> {
  const sql = new Bun.SQL(url, { max: 1 });
  try {
    const [row] = await sql`select current_setting('data_directory') as dir, current_setting('server_version') as version`;
    const pid = Number(readFileSync(join(row.dir, "postmaster.pid"), "utf8").split("\n")[0]);
    return { pid, version: row.version };
  } finally {
    await sql.close();
  }
}

/** What the server's log says: answers counted by status, refusals by reason, then the last warnings and errors. */
function logDigest(file: string): string {
  let lines: string[];
  try {
    lines = readFileSync(file, "utf8").split("\n").filter(Boolean);
  } catch {
    return `(no log at ${file})`;
  }
  const statuses = new Map<string, number>();
  const refusals = new Map<string, number>();
  const count = (counts: Map<string, number>, key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);
  const notable: string[] = [];
  for (const line of lines) {
    const status = /"msg":"request".*?"status":(\d+)/.exec(line)?.[1];
    const refusal = /"msg":"refused".*?("error":.*)\}$/.exec(line)?.[1];
    if (status) count(statuses, status);
    else if (refusal) count(refusals, refusal);
    else if (/"level":"(warn|error|fatal)"/.test(line) || !line.startsWith("{")) notable.push(line.length > 800 ? `${line.slice(0, 800)}…` : line);
  }
  const counted = [...statuses].map(([s, n]) => `${s}: ${n}`).join(", ");
  const refused = [...refusals].map(([why, n]) => `refused ${n} times: ${why}`);
  return [`logged answers by status: ${counted || "none"}`, ...refused, ...notable.slice(-20)].join("\n");
}

type Pair = { label: string; budget: string; load: string; sqlite?: Round; postgres?: Round; failed?: string };

export async function benchPostgres(signatureCost: () => Promise<number>): Promise<void> {
  const seconds = Number(process.env.BENCH_SECONDS ?? 5);
  const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
  const oneUse = Number(process.env.BENCH_ONE_USE ?? 60_000);
  if (pgSkipReason) {
    console.log(`--store postgres: skipped, ${pgSkipReason}`);
    return;
  }
  const cluster = await startPostgres();
  if (!cluster) return;
  const logs = mkdtempSync(join(tmpdir(), "cairn-bench-logs-"));
  const servers: Server[] = [];
  const pairs: Pair[] = [];
  let two: { one: Round; two: Round; load: string } | { failed: string } | null = null;
  let signatureUs: number | null = null;
  try {
    const url = await cluster.createDatabase("cairn_bench");
    const secret = randomBytes(32).toString("base64");
    const onPostgres = { CAIRN_DATABASE_URL: url, CAIRN_SECRET: secret };
    const command = cairnCommand();
    const sqlite = await startServer({}, command, { log: join(logs, "sqlite.log") });
    servers.push(sqlite);
    const a = await startServer(onPostgres, command, { log: join(logs, "postgres-a.log") });
    servers.push(a);
    const pg = await postmaster(url);
    console.log(
      `measuring ${command.join(" ")} on SQLite and on PostgreSQL ${pg.version} (a private cluster, fsync on, its defaults), their rounds in turn:` +
        ` ${rounds} rounds of ${seconds} s, 10 connections, ${placement()}, ${availableParallelism()} cores, load average ${load1()} at the start\n`,
    );
    const prepare = (server: Server, store: Store): Promise<OAuthTarget> =>
      prepareOAuth(server, {
        ...(store === "sqlite"
          ? {
              secret: readSecretFile(join(server.dir, "data", "secret.key"), { nothingSealed: false }) as string,
              seed: sqliteSeedDb(join(server.dir, "data", "cairn.db")),
            }
          : { secret, seed: postgresSeedDb(url), extra: { dbPid: pg.pid } }),
        oneUse,
        runs: rounds + 1,
        seconds,
      });
    const seeding = performance.now();
    const onSqlite = await prepare(sqlite, "sqlite");
    const seededSqlite = performance.now();
    const onPg = await prepare(a, "postgres").catch((e: Error) => e);
    console.log(
      `seeded ${fmt(oneUse)} codes, refresh and DPoP-bound refresh tokens: SQLite in ${fmt((seededSqlite - seeding) / 1000, 1)} s,` +
        (onPg instanceof Error ? ` PostgreSQL failed: ${onPg.message}` : ` PostgreSQL in ${fmt((performance.now() - seededSqlite) / 1000, 1)} s`),
    );

    for (const { label, budget, load: sqliteLoad } of onSqlite.scenarios.filter((s) => wanted(s.label))) {
      const pair: Pair = { label, budget, load: load1() };
      pairs.push(pair);
      if (onPg instanceof Error) {
        pair.failed = `not prepared: ${onPg.message}`;
        continue;
      }
      const pgLoad = onPg.scenarios.find((s) => s.label === label)?.load as () => ReturnType<typeof sqliteLoad>;
      // Measured while both servers idle, just before the scenario it explains.
      if (label === CODE_GRANT) signatureUs = await signatureCost();
      try {
        [pair.sqlite, pair.postgres] = (await alternate([sqliteLoad(), pgLoad()], rounds)) as [Round, Round];
      } catch (e) {
        pair.failed = (e as Error).message;
      }
    }

    // Two instances on the one database, one issuer (as behind a balancer), the same 10
    // connections spread over both by one autocannon, against the first instance alone.
    if (wanted(INTROSPECTION) && !(onPg instanceof Error)) {
      try {
        const b = await startServer({ ...onPostgres, CAIRN_ISSUER: a.url }, command, { log: join(logs, "postgres-b.log") });
        servers.push(b);
        const opts = { ...onPg.introspect, dbPid: pg.pid };
        const path = "/api/oauth/introspect";
        const started = load1();
        const [one, both] = (await alternate(
          [load(a.url + path, a.proc.pid, seconds, opts), load([a.url + path, b.url + path], [a.proc.pid, b.proc.pid], seconds, opts)],
          rounds,
        )) as [Round, Round];
        two = { one, two: both, load: started };
      } catch (e) {
        two = { failed: (e as Error).message };
      }
    }
  } finally {
    for (const server of servers) await server.stop().catch(() => {});
    await cluster.close();
  }

  const cell = (r: Round | undefined) => (r ? `${fmt(r.rps)} (${us(r.cpuMsPerReq)})` : "-");
  const pgCell = (r: Round | undefined) => (r ? `${fmt(r.rps)} (${us(r.cpuMsPerReq)} + ${us(r.dbCpuMsPerReq)})` : "-");
  printTable(
    [
      "scenario",
      "SQLite req/s (CPU µs/req)",
      "PostgreSQL req/s (Cairn + PostgreSQL CPU µs/req)",
      "req/s PG/SQLite",
      "CPU PG/SQLite",
      "p99 ms SQLite, PG",
      "errors SQLite, PG",
      "stolen %",
      "load avg",
    ],
    pairs.map(({ label, load: avg, sqlite: s, postgres: p, failed }) => [
      label,
      cell(s),
      failed ? `failed: ${failed.split("\n")[0]?.slice(0, 120)}` : pgCell(p),
      s && p?.rps ? `${fmt(p.rps / s.rps, 2)}x` : "",
      s && p ? `${fmt((p.cpuMsPerReq + (p.dbCpuMsPerReq ?? 0)) / s.cpuMsPerReq, 2)}x` : "",
      s && p ? `${fmt(s.p99, 1)}, ${fmt(p.p99, 1)}` : "",
      s && p ? `${s.errors}, ${p.errors}` : "",
      s && p ? `${fmt(s.stolenPct)}, ${fmt(p.stolenPct)}` : "",
      avg,
    ]),
  );
  if (signatureUs !== null) console.log(`\nOne ML-DSA-65 signature took ${fmt(signatureUs)} µs of CPU just before the code grant was measured.`);
  if (two) {
    console.log("\nIntrospection on PostgreSQL: two instances on the one database against one (the same 10 connections, one autocannon)");
    if ("failed" in two) console.log(`failed: ${two.failed}`);
    else {
      const row = (what: string, r: Round) => [what, fmt(r.rps), us(r.cpuMsPerReq), us(r.dbCpuMsPerReq), fmt(r.p99, 1), String(r.errors), fmt(r.stolenPct)];
      printTable(
        ["instances", "req/s", "Cairn CPU µs/req", "PostgreSQL CPU µs/req", "p99 ms", "errors", "stolen %"],
        [row("one", two.one), row("two", two.two), ["two / one", `${fmt(two.two.rps / two.one.rps, 2)}x`, "", "", "", "", ""]],
      );
      console.log(`load average ${two.load} at its start, on ${availableParallelism()} cores`);
    }
  }
  // What went wrong on either store, from the servers' own logs.
  const troubled = pairs.some((p) => p.failed || p.postgres?.errors || p.sqlite?.errors) || (two && ("failed" in two || two.two.errors > 0));
  if (!troubled) return rmSync(logs, { recursive: true, force: true });
  for (const name of ["sqlite", "postgres-a", "postgres-b"]) console.log(`\n--- ${name}.log\n${logDigest(join(logs, `${name}.log`))}`);
  console.log(`\nthe servers' logs are kept in ${logs}`);
}
