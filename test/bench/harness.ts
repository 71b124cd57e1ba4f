import type { Subprocess } from "bun";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";

const ROOT = join(import.meta.dir, "../..");
export const BINARY = join(ROOT, "dist/cairn");
const AUTOCANNON = join(ROOT, "node_modules/autocannon/autocannon.js");
const CLK_TCK = 100; // Linux USER_HZ

export type Server = { proc: Subprocess; url: string; dir: string; stop(): Promise<void> };

export function freePort(): number {
  const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = probe.port as number;
  probe.stop(true);
  return port;
}

/** The cores BENCH_PIN gives the servers and the load generator; null when unpinned. */
function pinCores(): Record<"server" | "load", string> | null {
  const cores = availableParallelism();
  return process.env.BENCH_PIN && cores >= 2 ? { server: String(cores - 1), load: `0-${cores - 2}` } : null;
}

/**
 * BENCH_PIN=1 keeps the servers (Cairn and the peer) on the last core and the load generator on
 * the others (taskset). Left to the scheduler, on 2 cores the load generator often lands on the
 * server's core: the same build then measured either of two rates, about 2x apart for
 * introspection, from one run to the next. Pinned, each run measures one placement. Off by
 * default: the issue's numbers were taken unpinned.
 */
export function pinned(role: "server" | "load", command: string[]): string[] {
  const cores = pinCores();
  return cores ? ["taskset", "-c", cores[role], ...command] : command;
}

/** Says how the run is placed, for the heading of a report. */
export const placement = () => {
  const cores = pinCores();
  return cores ? `servers pinned to core ${cores.server}, load to the others` : "unpinned";
};

/**
 * The command that runs Cairn: the built executable when there is one, else the source.
 * BENCH_PROFILE=<folder> runs the source under Bun's sampling profiler instead, which writes a
 * Markdown profile (hot functions by self time) into the folder when the server stops.
 */
export function cairnCommand(): string[] {
  const profile = process.env.BENCH_PROFILE;
  if (profile) return [process.execPath, "--cpu-prof-md", `--cpu-prof-dir=${profile}`, "--cpu-prof-interval=100", join(ROOT, "src/main.ts")];
  return existsSync(BINARY) ? [BINARY] : [process.execPath, join(ROOT, "src/main.ts")];
}

/**
 * Starts Cairn in an empty folder (logging as in production, to /dev/null, or to `log`); resolves
 * when it answers.
 */
export async function startServer(
  env: Record<string, string> = {},
  command: string[] = cairnCommand(),
  { log }: { log?: string } = {},
): Promise<Server & { startMs: number }> {
  const dir = mkdtempSync(join(tmpdir(), "cairn-bench-"));
  const port = freePort();
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const proc = Bun.spawn(pinned("server", [...command, "serve"]), {
    cwd: dir,
    env: { ...process.env, PORT: String(port), CAIRN_ISSUER: url, ...env },
    // BENCH_LOG=file keeps the server's request log, to see what the errors were.
    stdout: log ? Bun.file(log) : process.env.BENCH_LOG ? Bun.file(process.env.BENCH_LOG) : "ignore",
    stderr: "inherit",
  });
  for (;;) {
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {}
    if (performance.now() - started > 20_000) throw new Error("server did not start within 20 s");
    await Bun.sleep(2);
  }
  const startMs = performance.now() - started;
  return {
    proc,
    url,
    dir,
    startMs,
    async stop() {
      proc.kill("SIGTERM");
      await proc.exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The process and its descendants alive now: Cairn's workers (CAIRN_WORKERS) are child processes. */
export function processTree(pid: number): number[] {
  let children: number[] = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").split(" ").filter(Boolean).map(Number);
  } catch {
    // exited meanwhile
  }
  return [pid, ...children.flatMap(processTree)];
}

/** CPU seconds (user + system) the processes and their workers (or backends) have used so far. */
export function cpuSeconds(pid: number | number[]): number {
  let total = 0;
  for (const p of [pid].flat().flatMap(processTree)) {
    try {
      const fields = readFileSync(`/proc/${p}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
      total += (Number(fields[11]) + Number(fields[12])) / CLK_TCK;
    } catch {
      // exited meanwhile
    }
  }
  return total;
}

/** Resident memory of the process and its workers, in MB. */
export function rssMb(pid: number): number {
  return processTree(pid).reduce((sum, p) => {
    const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, "utf8"))?.[1];
    return sum + Number(kb) / 1024;
  }, 0);
}

/**
 * The machine's CPU time so far, in clock ticks: all of it, and what the hypervisor took for other
 * guests (`steal`), from /proc/stat's first line.
 */
function machineTicks(): { all: number; stolen: number } {
  const fields = (readFileSync("/proc/stat", "utf8").split("\n")[0] ?? "").trim().split(/\s+/).slice(1, 9).map(Number);
  return { all: fields.reduce((a, b) => a + b, 0), stolen: fields[7] ?? 0 };
}

/**
 * `stolenPct`: the share of the machine's CPU time the hypervisor gave other guests during the run,
 * a figure that moves every other. `dbCpuMsPerReq`: the database server's, when it is a process of
 * its own (PostgreSQL), apart from the server's `cpuMsPerReq`.
 */
export type Round = { rps: number; p50: number; p99: number; cpuMsPerReq: number; dbCpuMsPerReq?: number; errors: number; stolenPct: number };

export type LoadOptions = {
  connections?: number;
  method?: string;
  body?: string;
  headers?: Record<string, string>;
  /**
   * Gives each run a fresh file of bodies, one per line, sent in turn (POST): one-use codes and
   * tokens. A line `body<TAB>proof` also sends that line's own `DPoP` header.
   */
  bodiesFile?: () => string | Promise<string>;
  /** The bodies are one-use (codes, rotating refresh tokens): each is sent once, and the run ends when they are used up. */
  oneUse?: boolean;
  /** Gives every GET its own value of this query parameter, so no cache answers. */
  uniqueParam?: string;
  /** The database server's main process (PostgreSQL's postmaster): its CPU and its children's, measured apart. */
  dbPid?: number;
};

/**
 * One autocannon run under Node (so the load generator does not share the server's runtime).
 * Several URLs (several servers, `pid` each of theirs): autocannon spreads the connections over them.
 */
export async function autocannon(url: string | string[], seconds: number, pid: number | number[], opts: LoadOptions = {}): Promise<Round> {
  const urls = [url].flat();
  // BENCH_CONNECTIONS=1 shows a request's own cost, without the batching that concurrency brings.
  const connections = String(opts.connections ?? Number(process.env.BENCH_CONNECTIONS ?? 10));
  const args = [AUTOCANNON, "-j", "-c", connections, "-d", String(seconds)];
  if (opts.method) args.push("-m", opts.method);
  if (opts.body) args.push("-b", opts.body);
  for (const [k, v] of Object.entries(opts.headers ?? {})) args.push("-H", `${k}=${v}`);
  const headers = JSON.stringify(opts.headers ?? {});
  const command = opts.bodiesFile
    ? [
        "node",
        join(import.meta.dir, "load-bodies.cjs"),
        urls[0] as string,
        String(seconds),
        connections,
        headers,
        await opts.bodiesFile(),
        opts.oneUse ? "once" : "cycle",
      ]
    : opts.uniqueParam
      ? ["node", join(import.meta.dir, "load-paths.cjs"), urls[0] as string, String(seconds), connections, headers, opts.uniqueParam]
      : ["node", ...args, ...urls];
  const cpuBefore = cpuSeconds(pid);
  const dbBefore = opts.dbPid ? cpuSeconds(opts.dbPid) : 0;
  const machineBefore = machineTicks();
  const run = Bun.spawn(pinned("load", command), { stdout: "pipe", stderr: "ignore" });
  const out = JSON.parse(await new Response(run.stdout).text());
  const cpu = cpuSeconds(pid) - cpuBefore;
  const dbCpu = opts.dbPid ? cpuSeconds(opts.dbPid) - dbBefore : 0;
  const machineAfter = machineTicks();
  const total = out.requests.total as number;
  return {
    // A run that ends when its one-use bodies are used up: over its real length.
    rps: out.measuredSeconds ? total / out.measuredSeconds : out.requests.average,
    p50: out.latency.p50,
    p99: out.latency.p99,
    cpuMsPerReq: total ? (cpu * 1000) / total : 0,
    ...(opts.dbPid ? { dbCpuMsPerReq: total ? (dbCpu * 1000) / total : 0 } : {}),
    errors: out.errors + out.non2xx,
    stolenPct: (100 * (machineAfter.stolen - machineBefore.stolen)) / Math.max(1, machineAfter.all - machineBefore.all),
  };
}

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

/** A warm-up, then `rounds` measured runs; the median of each figure. */
export async function measure(url: string, pid: number, seconds: number, rounds: number, opts: LoadOptions = {}): Promise<Round> {
  return measureLoad(load(url, pid, seconds, opts), rounds);
}

/** One load on its own: its warm-up, then `rounds` measured runs; the median of each figure. */
export const measureLoad = async (one: Load, rounds: number): Promise<Round> => (await alternate([one], rounds))[0] as Round;

/** One scenario's load on one server: a short warm-up run, and a measured round. */
export type Load = { warm(): Promise<unknown>; round(): Promise<Round> };

export const load = (url: string | string[], pid: number | number[], seconds: number, opts: LoadOptions = {}): Load => ({
  warm: () => autocannon(url, Math.min(2, seconds), pid, opts),
  round: () => autocannon(url, seconds, pid, opts),
});

/**
 * Each load's warm-up, then their rounds in turn (A B A B ...), and the median of each one's
 * rounds: on a machine whose speed drifts (a neighbour's load, the hypervisor's steal), two
 * servers compared this way see the same drift, where measured one after the other they would not.
 */
export async function alternate(loads: Load[], rounds: number): Promise<Round[]> {
  for (const l of loads) await l.warm();
  const results = loads.map((): Round[] => []);
  for (let i = 0; i < rounds; i++) for (const [k, l] of loads.entries()) results[k]?.push(await l.round());
  return results.map(medianRound);
}

/** The median of each figure over rounds, and the errors of all of them. */
export function medianRound(results: Round[]): Round {
  return {
    rps: median(results.map((r) => r.rps)),
    p50: median(results.map((r) => r.p50)),
    p99: median(results.map((r) => r.p99)),
    cpuMsPerReq: median(results.map((r) => r.cpuMsPerReq)),
    ...(results[0]?.dbCpuMsPerReq === undefined ? {} : { dbCpuMsPerReq: median(results.map((r) => r.dbCpuMsPerReq ?? 0)) }),
    errors: results.reduce((n, r) => n + r.errors, 0),
    stolenPct: median(results.map((r) => r.stolenPct)),
  };
}

/** A Markdown table, its columns padded to their widest cell. */
export function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] as number)).join(" | ")} |`;
  console.log([line(header), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n"));
}
