/**
 * OAuth benchmarks against ARCHITECTURE section 6: discovery, JWKS, the token endpoint redeeming
 * pre-made codes (with an ML-DSA-65 ID token), the refresh grant (plain and DPoP-bound), the
 * client credentials grant, introspection and userinfo.
 * One-use codes and refresh tokens are written straight into the server's database beforehand,
 * so each request redeems a fresh one. `npm run bench:oauth`; BENCH_SECONDS, BENCH_ROUNDS.
 * Each scenario also runs on the peer, oidc-provider (test/bench/peer.ts), its rounds taken in
 * turn with Cairn's, unless BENCH_PEER=0.
 */
import { Database } from "bun:sqlite";
import { createHash, randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { CompactSign, calculateJwkThumbprint, exportJWK, generateKeyPair, SignJWT } from "jose";
import { createTokenIds, newToken } from "../../src/oauth/tokens/token-key.ts";
import { createSecretBox } from "../../src/shared/crypto.ts";
import { readSecretFile } from "../../src/keys/instance-secret.ts";
import { loadConfig } from "../../src/config/config.ts";
import { cairnCommand, type Load, load, measureLoad, placement, type Round, startServer } from "./harness.ts";
import { printComparison, startPeerBench } from "./peer.ts";

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const ONE_USE = Number(process.env.BENCH_ONE_USE ?? 120_000);
const REDIRECT = "https://rp.example.com/callback";
const hash = (s: string) => createHash("sha256").update(s).digest("hex");
const token = () => randomBytes(32).toString("base64url");
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
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(server.url + path, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.url, ...headers },
      body: JSON.stringify(body),
    }).then((r) => r.json());
  const { session_token, user } = await post("/api/auth/register", { username: "bench", email: "bench@example.com", password: "bench password 123" });
  const app = await post("/api/oauth/me/clients", { name: "Bench", redirect_uris: [{ uri: REDIRECT }] }, { authorization: `Bearer ${session_token}` });
  const basic = `Basic ${Buffer.from(`${app.client_id}:${app.client_secret}`).toString("base64")}`;
  const robot = await post(
    "/api/oauth/me/clients",
    { name: "Robot", redirect_uris: [], grant_types: ["client_credentials"], client_credentials_scopes: ["jobs:run"] },
    { authorization: `Bearer ${session_token}` },
  );
  const robotForm = {
    "content-type": "application/x-www-form-urlencoded",
    authorization: `Basic ${Buffer.from(`${robot.client_id}:${robot.client_secret}`).toString("base64")}`,
  };
  const form = { "content-type": "application/x-www-form-urlencoded", authorization: basic };
  await fetch(`${server.url}/.well-known/jwks.json`); // creates the signing keys

  const db = new Database(join(server.dir, "data", "cairn.db"));
  // Token values carry their row id sealed under the instance's key, as the server seals them.
  const ids = createTokenIds(
    createSecretBox(loadConfig(process.env).secret ?? (readSecretFile(join(server.dir, "data", "secret.key"), { nothingSealed: false }) as string)).derive(
      "token ids",
    ),
  );
  db.run("PRAGMA busy_timeout = 5000");
  const now = Date.now();
  // Each run gets the next unused slice, so no code or refresh token is ever sent twice.
  const PER_RUN = Math.floor(ONE_USE / (rounds + 1));
  const slices = (name: string, lines: string[]) => {
    let run = 0;
    return () => {
      const file = join(server.dir, `${name}-${run}.txt`);
      writeFileSync(file, lines.slice(run * PER_RUN, ++run * PER_RUN).join("\n"));
      return file;
    };
  };
  const codes: string[] = [];
  const refresh: string[] = [];
  const dpopRefresh: string[] = [];
  // RFC 9449: one key for the bound grants; each request gets its own proof, signed just before its run.
  const dpopKey = await generateKeyPair("ES256");
  const dpopJwk = await exportJWK(dpopKey.publicKey);
  const jkt = await calculateJwkThumbprint(dpopJwk, "sha256");
  db.transaction(() => {
    const code = db.prepare(
      "INSERT INTO authorization_codes (code_hash, client_id, user_id, redirect_uri, scopes, auth_time, amr, acr, expires_at) VALUES (?, ?, ?, ?, ?, ?, '[\"pwd\"]', 'pwd', ?)",
    );
    const grant = db.prepare(
      "INSERT INTO oauth_grants (id, client_id, user_id, scopes, auth_time, amr, acr, created_at, refresh_expires_at) VALUES (?, ?, ?, ?, ?, '[\"pwd\"]', 'pwd', ?, ?)",
    );
    const rt = db.prepare("INSERT INTO refresh_tokens (token_hash, grant_id, client_id, created_at, expires_at) VALUES (?, ?, ?, ?, ?)");
    const boundGrant = db.prepare(
      "INSERT INTO oauth_grants (id, client_id, user_id, scopes, auth_time, amr, acr, created_at, refresh_expires_at, dpop_jkt) VALUES (?, ?, ?, ?, ?, '[\"pwd\"]', 'pwd', ?, ?, ?)",
    );
    for (let i = 0; i < ONE_USE; i++) {
      const c = token();
      code.run(hash(c), app.client_id, user.id, REDIRECT, '["openid","profile"]', Math.floor(now / 1000), now + 3_600_000);
      codes.push(`grant_type=authorization_code&code=${c}&redirect_uri=${encodeURIComponent(REDIRECT)}`);
      const id = `g${i}`;
      grant.run(id, app.client_id, user.id, '["profile","offline_access"]', Math.floor(now / 1000), now, now + 86_400_000);
      const r = newToken(ids, "refresh", (h) => Number(rt.run(h, id, app.client_id, now, now + 86_400_000).lastInsertRowid));
      refresh.push(`grant_type=refresh_token&refresh_token=${r}`);
      boundGrant.run(`d${i}`, app.client_id, user.id, '["profile","offline_access"]', Math.floor(now / 1000), now, now + 86_400_000, jkt);
      const d = newToken(ids, "refresh", (h) => Number(rt.run(h, `d${i}`, app.client_id, now, now + 86_400_000).lastInsertRowid));
      dpopRefresh.push(`grant_type=refresh_token&refresh_token=${d}`);
    }
    grant.run("g-access", app.client_id, user.id, '["openid","profile","email"]', Math.floor(now / 1000), now, null);
  })();
  const access = newToken(ids, "access", (h) =>
    Number(
      db.run(
        'INSERT INTO access_tokens (token_hash, grant_id, client_id, user_id, scopes, created_at, expires_at) VALUES (?, \'g-access\', ?, ?, \'["openid","profile","email"]\', ?, ?)',
        [h, app.client_id, user.id, now, now + 3_600_000],
      ).lastInsertRowid,
    ),
  );
  // The seeding above is one huge transaction in the WAL; a server running for real checkpoints
  // every 1,000 pages. Left there, every read would search hundreds of megabytes of WAL index.
  db.run("PRAGMA wal_checkpoint(TRUNCATE)");
  db.close();

  /** Each body with a fresh proof for the token endpoint (iat now: the run starts within the proof window). */
  const withProofs = (file: () => string) => async () => {
    const path = file();
    const lines = (await Bun.file(path).text()).split("\n").filter(Boolean);
    const proofs = await Promise.all(
      lines.map(() =>
        new SignJWT({ jti: token(), htm: "POST", htu: `${server.url}/api/oauth/token` })
          .setProtectedHeader({ alg: "ES256", typ: "dpop+jwt", jwk: dpopJwk })
          .setIssuedAt()
          .sign(dpopKey.privateKey),
      ),
    );
    writeFileSync(path, lines.map((line, i) => `${line}\t${proofs[i]}`).join("\n"));
    return path;
  };
  // BENCH_ONLY=introspect,refresh runs the scenarios whose label contains one of the words.
  const only = process.env.BENCH_ONLY?.split(",").filter(Boolean) ?? [];
  const wanted = (label: string) => only.length === 0 || only.some((word) => label.includes(word));
  // With the peer, each scenario's rounds alternate between the two servers (harness.ts alternate).
  const row = async (label: string, ours: () => Load, budget: string) => {
    if (!wanted(label)) return;
    const r = peer ? await peer.against(label, ours()) : await measureLoad(ours(), rounds);
    results.set(label, r);
    rows.push([label, fmt(r.rps), fmt(r.p99, 1), fmt(r.cpuMsPerReq, 3), String(r.errors), fmt(r.stolenPct), budget]);
  };
  const pid = server.proc.pid;
  await row("GET /.well-known/openid-configuration", () => load(`${server.url}/.well-known/openid-configuration`, pid, seconds), ">= 25,000");
  await row("GET /.well-known/jwks.json", () => load(`${server.url}/.well-known/jwks.json`, pid, seconds), ">= 25,000");
  // Measured while both servers idle, just before the scenario it explains.
  if (wanted("POST /api/oauth/token (code, ML-DSA-65 ID token)")) signatureUs = await signatureCost();
  await row(
    "POST /api/oauth/token (code, ML-DSA-65 ID token)",
    () => load(`${server.url}/api/oauth/token`, pid, seconds, { headers: form, bodiesFile: slices("codes", codes), oneUse: true }),
    ">= 3,000, p99 < 15 ms",
  );
  await row(
    "POST /api/oauth/token (refresh grant)",
    () => load(`${server.url}/api/oauth/token`, pid, seconds, { headers: form, bodiesFile: slices("refresh", refresh), oneUse: true }),
    ">= 5,000",
  );
  await row(
    "POST /api/oauth/token (DPoP-bound refresh)",
    () =>
      load(`${server.url}/api/oauth/token`, pid, seconds, {
        headers: form,
        bodiesFile: withProofs(slices("dpop-refresh", dpopRefresh)),
        oneUse: true,
      }),
    "report (issue 11)",
  );
  await row(
    "POST /api/oauth/token (client credentials)",
    () => load(`${server.url}/api/oauth/token`, pid, seconds, { method: "POST", headers: robotForm, body: "grant_type=client_credentials" }),
    "report (issue 11)",
  );
  await row(
    "POST /api/oauth/introspect",
    () => load(`${server.url}/api/oauth/introspect`, pid, seconds, { method: "POST", headers: form, body: `token=${access}` }),
    ">= 12,000",
  );
  await row(
    "GET /api/oauth/userinfo",
    () => load(`${server.url}/api/oauth/userinfo`, pid, seconds, { headers: { authorization: `Bearer ${access}` } }),
    ">= 12,000",
  );
} finally {
  await server.stop();
  await peer?.stop();
}

const header = ["what", "req/s", "p99 ms", "CPU ms/req", "errors", "stolen %", "budget"];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] as number)).join(" | ")} |`;
console.log(line(header));
console.log(line(widths.map((w) => "-".repeat(w))));
for (const r of rows) console.log(line(r));
if (signatureUs !== null)
  console.log(`\nOne ML-DSA-65 signature (jose, WebCrypto) took ${fmt(signatureUs)} µs of CPU on this machine during this run; the code grant signs one.`);

// The same scenarios on the peer, their rounds taken in turn with Cairn's, and the ratios.
if (peer) printComparison(results, peer.results);
