/**
 * The peer side of the OAuth benchmark: the same scenarios, measured the same way, against
 * panva's oidc-provider (test/bench/peer-server.ts, run with Bun), and a table of ratios.
 * Scenarios are keyed by the labels of Cairn's rows in oauth.ts.
 */
import type { Subprocess } from "bun";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { alternate, freePort, type Load, load, measureLoad, pinned, type Round } from "./harness.ts";

/** Refresh tokens per run, each on its own grant: see `refresh` below. */
const REFRESH_TOKENS = 100;

type Seed = { access_token: string; refresh_tokens: string[]; seed_ms: number; server_errors?: number };
type Ready = Seed & { ready: true; issuer: string; client_id: string; client_secret: string };
export type PeerResult = { round: Round; path: string } | { na: string };

/** Cairn's rows that have no counterpart here, and why. */
const NOT_MEASURED: Record<string, string> = {
  "POST /api/oauth/token (code, ML-DSA-65 ID token)": "oidc-provider signs no ML-DSA-65",
  "POST /api/oauth/token (DPoP-bound refresh)": "not measured on the peer",
};

const fmt = (n: number, d = 0) => n.toLocaleString("en-US", { maximumFractionDigits: d, minimumFractionDigits: d });

/** Starts the peer on a free port; resolves with its ready line. */
async function startPeer() {
  const port = freePort();
  const proc: Subprocess<"pipe", "pipe", "inherit"> = Bun.spawn(pinned("server", [process.execPath, join(import.meta.dir, "peer-server.ts")]), {
    env: { ...process.env, PORT: String(port) },
    stdin: "pipe",
    stdout: "pipe",
    stderr: "inherit",
  });
  const reader = proc.stdout.getReader();
  const decoder = new TextDecoder();
  let buffered = "";
  const nextLine = async (): Promise<string> => {
    for (;;) {
      const nl = buffered.indexOf("\n");
      if (nl >= 0) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        return line;
      }
      const { done, value } = await reader.read();
      if (done) throw new Error("the peer exited");
      buffered += decoder.decode(value, { stream: true });
    }
  };
  const timeout = setTimeout(() => proc.kill(), 20_000);
  const ready = JSON.parse(await nextLine()) as Ready;
  clearTimeout(timeout);
  return {
    proc,
    ready,
    /** Fresh tokens made through the provider's models (asked for on its stdin). */
    async seed(refreshTokens: number): Promise<Seed> {
      proc.stdin.write(`seed ${refreshTokens}\n`);
      proc.stdin.flush();
      return JSON.parse(await nextLine()) as Seed;
    },
    async stop() {
      proc.stdin.end();
      const timer = setTimeout(() => proc.kill(), 2_000);
      await proc.exited;
      clearTimeout(timer);
    },
  };
}

/**
 * The peer, started and seeded, with its scenarios keyed by the labels of Cairn's rows:
 * `against(label, ours)` measures one with Cairn's, their rounds in turn (so a machine whose speed
 * drifts weighs on both alike), and `results` holds what the peer measured.
 */
export async function startPeerBench(seconds: number, rounds: number) {
  const results = new Map<string, PeerResult>();
  const peer = await startPeer();
  const dir = mkdtempSync(join(tmpdir(), "cairn-bench-peer-"));
  const { issuer, client_id, client_secret } = peer.ready;
  const pid = peer.proc.pid;
  const basic = `Basic ${Buffer.from(`${encodeURIComponent(client_id)}:${encodeURIComponent(client_secret)}`).toString("base64")}`;
  const form = { "content-type": "application/x-www-form-urlencoded", authorization: basic };
  const seeds: Seed[] = [peer.ready];
  const seed = async (n: number) => {
    const s = await peer.seed(n);
    seeds.push(s);
    return s;
  };
  const discovery = await (await fetch(`${issuer}/.well-known/openid-configuration`)).json();
  const paths = {
    token: new URL(discovery.token_endpoint).pathname,
    introspection: new URL(discovery.introspection_endpoint).pathname,
    userinfo: new URL(discovery.userinfo_endpoint).pathname,
    jwks: new URL(discovery.jwks_uri).pathname,
  };
  const at = (path: string) => issuer + path;
  // The peer does not rotate a confidential client's refresh token (its default), so a token can
  // be sent again and again. Each run gets fresh ones, 100 grants sent in turn: the in-memory
  // adapter keeps a grant's token ids in one list and walks it on every token it issues, so one
  // grant refreshed all run long would make each request slower than the one before.
  let refreshRun = 0;
  const refreshBodies = async () => {
    const { refresh_tokens } = await seed(REFRESH_TOKENS);
    const file = join(dir, `refresh-${refreshRun++}.txt`);
    writeFileSync(file, refresh_tokens.map((t) => `grant_type=refresh_token&refresh_token=${t}`).join("\n"));
    return file;
  };
  // Introspection answers 200 {"active":false} for a token it cannot find, so check it is found.
  // A fresh token: the in-memory adapter is an LRU of about 1,000 entries, and the grants made
  // before have pushed out the ones made earlier. Nothing is written under this load, so it stays.
  // Checked after each round, outside what is measured.
  const introspection = async (): Promise<Load> => {
    const { access_token } = await seed(0);
    const introspect = { method: "POST", headers: form, body: `token=${access_token}` };
    const measured = load(at(paths.introspection), pid, seconds, introspect);
    return {
      warm: measured.warm,
      async round() {
        const round = await measured.round();
        const after = await (await fetch(at(paths.introspection), introspect)).json();
        if (after.active !== true) console.error(`the peer's access token was no longer active after the introspection run: ${JSON.stringify(after)}`);
        return round;
      },
    };
  };
  type Scenario = { path: string; load: () => Load | Promise<Load> };
  const scenarios: Record<string, Scenario> = {
    "GET /.well-known/openid-configuration": {
      path: "/.well-known/openid-configuration",
      load: () => load(at("/.well-known/openid-configuration"), pid, seconds),
    },
    "GET /.well-known/jwks.json": { path: paths.jwks, load: () => load(at(paths.jwks), pid, seconds) },
    "POST /api/oauth/token (refresh grant)": {
      path: paths.token,
      load: () => load(at(paths.token), pid, seconds, { headers: form, bodiesFile: refreshBodies }),
    },
    "POST /api/oauth/token (client credentials)": {
      path: paths.token,
      load: () => load(at(paths.token), pid, seconds, { method: "POST", headers: form, body: "grant_type=client_credentials" }),
    },
    "POST /api/oauth/introspect": { path: paths.introspection, load: introspection },
    "GET /api/oauth/userinfo": {
      path: paths.userinfo,
      load: async () => {
        const { access_token } = await seed(0);
        return load(at(paths.userinfo), pid, seconds, { headers: { authorization: `Bearer ${access_token}` } });
      },
    },
  };
  return {
    results,
    /** Cairn's `ours` for row `label`, measured with the peer's counterpart if it has one (their rounds in turn): Cairn's result. */
    async against(label: string, ours: Load): Promise<Round> {
      const why = NOT_MEASURED[label];
      if (why) results.set(label, { na: why });
      const scenario = scenarios[label];
      if (!scenario) return measureLoad(ours, rounds);
      const [cairn, peer] = (await alternate([ours, await scenario.load()], rounds)) as [Round, Round];
      results.set(label, { round: peer, path: scenario.path });
      return cairn;
    },
    async stop(): Promise<void> {
      try {
        const last = await peer.seed(0);
        if (last.server_errors) console.error(`the peer logged ${last.server_errors} server errors`);
      } finally {
        await peer.stop();
        rmSync(dir, { recursive: true, force: true });
      }
      const refreshSeeded = seeds.reduce((n, s) => n + s.refresh_tokens.length, 0);
      const seedMs = seeds.reduce((n, s) => n + s.seed_ms, 0);
      console.log(
        `\npeer seeding (through oidc-provider's models): ${seeds.length} seedings, ${refreshSeeded} refresh tokens (one grant each) and ${seeds.length} access tokens in ${fmt(seedMs, 1)} ms` +
          ` (first: ${peer.ready.refresh_tokens.length} + 1 in ${fmt(peer.ready.seed_ms, 1)} ms)`,
      );
    },
  };
}

/** The second table: Cairn and the peer side by side, with the ratios Cairn / peer. */
export function printComparison(cairn: Map<string, Round>, peer: Map<string, PeerResult>) {
  if (peer.size === 0) return;
  const cell = (r: Round) => `${fmt(r.rps)} (${fmt(r.cpuMsPerReq * 1000)})`;
  const header = [
    "scenario",
    "Cairn req/s (CPU µs/req)",
    "peer req/s (CPU µs/req)",
    "req/s Cairn/peer",
    "CPU Cairn/peer",
    "peer errors",
    "stolen % Cairn, peer",
  ];
  const rows: string[][] = [];
  const notes: string[] = [];
  for (const [label, ours] of cairn) {
    const theirs = peer.get(label);
    if (!theirs) continue;
    if ("na" in theirs) {
      rows.push([label, cell(ours), "n/a", "", "", "", fmt(ours.stolenPct)]);
      notes.push(`${label}: ${theirs.na}`);
      continue;
    }
    const p = theirs.round;
    const rps = p.rps ? `${fmt(ours.rps / p.rps, 2)}x` : "-";
    const cpu = p.cpuMsPerReq ? `${fmt(ours.cpuMsPerReq / p.cpuMsPerReq, 2)}x` : "-";
    rows.push([label, cell(ours), cell(p), rps, cpu, String(p.errors), `${fmt(ours.stolenPct)}, ${fmt(p.stolenPct)}`]);
    if (theirs.path !== label.split(" ")[1]) notes.push(`${label}: the peer's ${theirs.path}`);
  }
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] as number)).join(" | ")} |`;
  console.log(`\nCairn against oidc-provider ${peerVersion()} (Bun ${Bun.version}), same load; CPU is per request, lower is better`);
  console.log(line(header));
  console.log(line(widths.map((w) => "-".repeat(w))));
  for (const r of rows) console.log(line(r));
  console.log(
    [
      "",
      "The peer keeps everything in memory (oidc-provider's default adapter, an LRU of about 1,000 entries) and, by its",
      "default for a confidential client, does not rotate refresh tokens: each refresh writes one access token to memory.",
      "Cairn rotates the refresh token and persists every grant to SQLite before answering.",
      ...notes,
    ].join("\n"),
  );
}

function peerVersion(): string {
  const manifest = join(import.meta.dir, "../../node_modules/oidc-provider/package.json");
  return (JSON.parse(readFileSync(manifest, "utf8")) as { version: string }).version;
}
