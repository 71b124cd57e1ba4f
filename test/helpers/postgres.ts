import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./temp.ts";

export type PgCluster = {
  host: string;
  port: number;
  /** A new empty database (encoding UTF8, collation C, ctype C.UTF-8), returns its postgres:// URL. */
  createDatabase(name?: string): Promise<string>;
  /** Stops the server (mode "immediate" = crash-like) / starts it again on the same port and data. */
  stop(mode?: "fast" | "immediate"): Promise<void>;
  start(): Promise<void>;
  /** Stops and removes everything. */
  close(): Promise<void>;
};

/** The newest installed server's bin folder (Debian: /usr/lib/postgresql/<major>/bin), or null. */
function findBin(): string | null {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return null;
  const majors = readdirSync(root)
    .filter((name) => /^\d+$/.test(name) && existsSync(join(root, name, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return majors[0] ? join(root, majors[0], "bin") : null;
}

const BIN = findBin();
const AS_ROOT = process.getuid?.() === 0;
/** The server refuses to run as root: there it runs as the `postgres` system user. */
const POSTGRES_USER = AS_ROOT ? lookupUser("postgres") : null;

function lookupUser(name: string): { uid: number; gid: number } | null {
  const line = readFileSync("/etc/passwd", "utf8")
    .split("\n")
    .find((entry) => entry.startsWith(`${name}:`));
  if (!line) return null;
  const [, , uid, gid] = line.split(":");
  return { uid: Number(uid), gid: Number(gid) };
}

/** Why PostgreSQL tests skip here (no server binaries), or null. Tests use `describe.skipIf(pgSkipReason !== null)` or log it once. */
export const pgSkipReason: string | null = !BIN
  ? "no PostgreSQL server under /usr/lib/postgresql (apt-get install postgresql)"
  : AS_ROOT && !POSTGRES_USER
    ? "running as root and no `postgres` user to run the server as"
    : null;

/** Runs a server binary (as `postgres` when we are root); throws with its output when it fails. */
async function run(args: string[]): Promise<string> {
  const command = AS_ROOT ? ["runuser", "-u", "postgres", "--", ...args] : args;
  const proc = Bun.spawn(command, { stdout: "pipe", stderr: "pipe", stdin: "ignore" });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) throw new Error(`${args.join(" ")} exited ${code}:\n${out}${err}`);
  return out;
}

/**
 * This process's folder: the initdb template and one subfolder per cluster. A watchdog stops every
 * server in it and removes it once this process is gone, however it ended (a crash or SIGKILL
 * included, which no exit hook sees); it polls once a second.
 */
const root = lazy(() => {
  const dir = mkdtempSync(join(tmpdir(), "cairn-pg-"));
  if (POSTGRES_USER) chownSync(dir, POSTGRES_USER.uid, POSTGRES_USER.gid);
  const script = [
    `while kill -0 ${process.pid} 2>/dev/null; do sleep 1; done`,
    // SIGQUIT is the postmaster's immediate shutdown; the pid file names the current one (start() changes it).
    `for f in '${dir}'/*/data/postmaster.pid; do pid=$(head -1 "$f" 2>/dev/null) && kill -QUIT "$pid" 2>/dev/null; done`,
    `for _ in 1 2 3 4 5 6 7 8 9 10; do ls '${dir}'/*/data/postmaster.pid >/dev/null 2>&1 || break; sleep 0.5; done`,
    `rm -rf '${dir}'`,
  ].join("\n");
  Bun.spawn(["sh", "-c", script], { stdio: ["ignore", "ignore", "ignore"], detached: true }).unref();
  return dir;
});

/** initdb once per process (about a second); each cluster starts from a copy of it (a third of that). */
const template = lazy(async () => {
  const dataDir = join(root(), "template");
  // --no-sync: the fresh cluster need not be durable before it first starts; the server runs with fsync on.
  await run([`${BIN}/initdb`, "-D", dataDir, "--locale=C.UTF-8", "-E", "UTF8", "-A", "trust", "-U", "postgres", "--no-sync", "--no-instructions"]);
  return dataDir;
});

function lazy<T>(make: () => T): () => T {
  let value: { made: T } | undefined;
  return () => (value ??= { made: make() }).made;
}

let clusters = 0;
let databases = 0;

/** A private cluster for this test file (initdb in a temp dir, 127.0.0.1 on a free port, fsync on); null when pgSkipReason. */
export async function startPostgres(): Promise<PgCluster | null> {
  if (pgSkipReason || !BIN) return null;
  const bin = BIN;
  const dir = join(root(), `cluster-${++clusters}`);
  const dataDir = join(dir, "data");
  const logFile = join(dir, "server.log");
  const host = "127.0.0.1";
  let port = 0;
  let running = false;
  await run(["mkdir", "-m", "700", dir]);
  await run(["cp", "-a", await template(), dataDir]);

  const start = async () => {
    await run([`${bin}/pg_ctl`, "start", "-w", "-t", "30", "-D", dataDir, "-l", logFile, "-o", `-c listen_addresses=${host} -p ${port} -k ${dir} -c fsync=on`]);
    running = true;
  };
  const stop = async (mode: "fast" | "immediate" = "fast") => {
    await run([`${bin}/pg_ctl`, "stop", "-w", "-t", "30", "-D", dataDir, "-m", mode]);
    running = false;
  };

  // The free port may be taken between the probe and the start: try another one.
  for (let attempt = 1; ; attempt++) {
    port = freePort();
    try {
      await start();
      break;
    } catch (error) {
      if (attempt === 3) {
        const log = existsSync(logFile) ? readFileSync(logFile, "utf8") : "";
        throw new Error(`${(error as Error).message}\n${log}`);
      }
    }
  }

  return {
    host,
    port,
    async createDatabase(name = `cairn_${process.pid}_${++databases}`) {
      // Collation C orders text as SQLite does (byte order); ctype C.UTF-8 classifies all of Unicode.
      await run([
        `${bin}/createdb`,
        "-h",
        dir,
        "-p",
        String(port),
        "-U",
        "postgres",
        "-T",
        "template0",
        "-E",
        "UTF8",
        "--lc-collate=C",
        "--lc-ctype=C.UTF-8",
        name,
      ]);
      return `postgres://postgres@${host}:${port}/${name}`;
    },
    stop,
    start,
    async close() {
      if (running) await stop("immediate").catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
