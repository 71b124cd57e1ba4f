/**
 * The PostgreSQL client's cost per primary-key select on loopback (issue 46): median and p99
 * latency and this process's CPU per query, one at a time and 16 in flight, against a private
 * cluster (test/helpers/postgres.ts). Beside it, Bun.SQL called directly, to show what the client
 * adds (placeholder numbering, decoding, the query deadline). Run: `bun test/bench/pg-client.ts`;
 * BENCH_QUERIES per row (default 20000).
 */
import { openPostgres } from "../../src/db/pg/client.ts";
import { pgSkipReason, startPostgres } from "../helpers/postgres.ts";

const QUERIES = Number(process.env.BENCH_QUERIES ?? 20_000);
const ROWS = 10_000;
const SELECT = 'select "id", "name", "n" from "users" where "users"."id" = ? limit ?';

if (pgSkipReason) {
  console.log(`skipped: ${pgSkipReason}`);
  process.exit(0);
}
const cluster = (await startPostgres())!;
const url = await cluster.createDatabase();
const client = openPostgres(url, { max: 16 });
const noDeadline = openPostgres(url, { max: 16, queryTimeoutMs: 0 });
const raw = new Bun.SQL(url, { max: 16 });

await client.query('create table "users" ("id" bigint primary key, "name" text not null, "n" bigint not null)');
await client.query(`insert into "users" select g, 'user ' || g, g * 1000 from generate_series(1, ${ROWS}) g`);
await client.query('analyze "users"');

type Run = (id: number) => Promise<unknown>;
const runs: [string, Run][] = [
  ["openPostgres query (arrays)", (id) => client.query(SELECT, [id, 1], "arrays")],
  ["openPostgres query, no deadline", (id) => noDeadline.query(SELECT, [id, 1], "arrays")],
  ["Bun.SQL unsafe ($1, values)", (id) => raw.unsafe('select "id", "name", "n" from "users" where "users"."id" = $1 limit $2', [id, 1]).values()],
];

/** `QUERIES` selects of random ids, `inFlight` at a time: latency percentiles and client CPU per query. */
async function measure(run: Run, inFlight: number) {
  const latencies = new Float64Array(QUERIES);
  let next = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < QUERIES) {
        const i = next++;
        const t = performance.now();
        await run(1 + Math.floor(Math.random() * ROWS));
        latencies[i] = performance.now() - t;
      }
    }),
  );
  const elapsed = performance.now() - started;
  const used = process.cpuUsage(cpu);
  latencies.sort();
  return {
    p50: latencies[Math.floor(QUERIES / 2)]! * 1000,
    p99: latencies[Math.floor(QUERIES * 0.99)]! * 1000,
    qps: (QUERIES / elapsed) * 1000,
    cpuUs: (used.user + used.system) / QUERIES,
  };
}

console.log(`${QUERIES} primary-key selects per row, ${ROWS} rows, loopback TCP\n`);
console.log("client                           | in flight |  p50 µs |  p99 µs |    q/s | client CPU µs/query");
for (const inFlight of [1, 16])
  for (const [label, run] of runs) {
    await measure(run, inFlight); // warm-up: connections, prepared statements, JIT
    const r = await measure(run, inFlight);
    const cells = [label.padEnd(32), String(inFlight).padStart(9), r.p50.toFixed(0).padStart(7), r.p99.toFixed(0).padStart(7), r.qps.toFixed(0).padStart(6)];
    console.log(`${cells.join(" | ")} | ${r.cpuUs.toFixed(1)}`);
  }

await Promise.all([client.close(), noDeadline.close(), raw.close()]);
await cluster.close();
