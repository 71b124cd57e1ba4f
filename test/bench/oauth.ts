/**
 * OAuth benchmarks against ARCHITECTURE section 6: discovery, JWKS, the token endpoint redeeming
 * pre-made codes (with an ML-DSA-65 ID token), the refresh grant (plain and DPoP-bound), the
 * client credentials grant, introspection and userinfo.
 * One-use codes and refresh tokens are written straight into the server's database beforehand,
 * so each request redeems a fresh one. `npm run bench:oauth`; BENCH_SECONDS, BENCH_ROUNDS.
 * Each scenario also runs on the peer, oidc-provider (test/bench/peer.ts), its rounds taken in
 * turn with Cairn's, unless BENCH_PEER=0. `npm run bench:oauth -- --store postgres` (or
 * BENCH_STORE=postgres) measures them on PostgreSQL against SQLite instead (oauth-postgres.ts).
 */
import { join } from "node:path";
import { CompactSign, generateKeyPair } from "jose";
import { readSecretFile } from "../../src/keys/instance-secret.ts";
import { loadConfig } from "../../src/config/config.ts";
import { cairnCommand, measureLoad, placement, printTable, type Round, startServer } from "./harness.ts";
import { CODE_GRANT, prepareOAuth, wanted } from "./oauth-scenarios.ts";
import { sqliteSeedDb } from "./oauth-seed.ts";
import { printComparison, startPeerBench } from "./peer.ts";
import { benchPostgres, storeFromArgs } from "./oauth-postgres.ts";

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const ONE_USE = Number(process.env.BENCH_ONE_USE ?? 120_000);
const fmt = (n: number, d = 0) => n.toLocaleString("en-US", { maximumFractionDigits: d, minimumFractionDigits: d });

/**
 * What one ML-DSA-65 signature costs on this machine now (CPU µs, all threads, median of 5 runs of
 * 100): the largest part of the code grant, and what moves most from day to day.
 */
async function signatureCost(): Promise<number> {
  const { privateKey } = await generateKeyPair("ML-DSA-65");
  const bytes = new TextEncoder().encode("x".repeat(600)); // about an ID token's signing input
  const sign = () => new CompactSign(bytes).setProtectedHeader({ alg: "ML-DSA-65" }).sign(privateKey);
  for (let i = 0; i < 50; i++) await sign();
  const runs: number[] = [];
  for (let run = 0; run < 5; run++) {
    const before = process.cpuUsage();
    for (let i = 0; i < 100; i++) await sign();
    const used = process.cpuUsage(before);
    runs.push((used.user + used.system) / 100);
  }
  return runs.sort((a, b) => a - b)[2] as number;
}
let signatureUs: number | null = null;

if (storeFromArgs() === "postgres") {
  await benchPostgres(signatureCost);
  process.exit(0);
}

console.log(`measuring ${cairnCommand().join(" ")}: ${rounds} rounds of ${seconds} s, 10 connections, ${placement()}\n`);
const server = await startServer();
// Both run throughout, each idle while the other is measured: a round of one, then a round of the other.
const peer =
  process.env.BENCH_PEER === "0"
    ? null
    : await startPeerBench(seconds, rounds).catch(async (e) => {
        await server.stop();
        throw e;
      });
const rows: string[][] = [];
const results = new Map<string, Round>(); // by label, for the comparison with the peer
try {
  const dataDir = join(server.dir, "data");
  const secret = loadConfig(process.env).secret ?? (readSecretFile(join(dataDir, "secret.key"), { nothingSealed: false }) as string);
  const { scenarios } = await prepareOAuth(server, {
    secret,
    seed: sqliteSeedDb(join(dataDir, "cairn.db")),
    oneUse: ONE_USE,
    runs: rounds + 1,
    seconds,
  });
  // With the peer, each scenario's rounds alternate between the two servers (harness.ts alternate).
  for (const { label, budget, load } of scenarios.filter((s) => wanted(s.label))) {
    // Measured while both servers idle, just before the scenario it explains.
    if (label === CODE_GRANT) signatureUs = await signatureCost();
    const r = peer ? await peer.against(label, load()) : await measureLoad(load(), rounds);
    results.set(label, r);
    rows.push([label, fmt(r.rps), fmt(r.p99, 1), fmt(r.cpuMsPerReq, 3), String(r.errors), fmt(r.stolenPct), budget]);
  }
} finally {
  await server.stop();
  await peer?.stop();
}

printTable(["what", "req/s", "p99 ms", "CPU ms/req", "errors", "stolen %", "budget"], rows);
if (signatureUs !== null)
  console.log(`\nOne ML-DSA-65 signature (jose, WebCrypto) took ${fmt(signatureUs)} µs of CPU on this machine during this run; the code grant signs one.`);

// The same scenarios on the peer, their rounds taken in turn with Cairn's, and the ratios.
if (peer) printComparison(results, peer.results);
