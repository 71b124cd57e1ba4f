/**
 * `npm run build`: the single executable dist/cairn (the SPA, built first, and the migrations
 * inside it). Issue 12, cold start and idle memory:
 *
 * - The JavaScript is carried as bytecode, so a start does not parse 6 MB of source.
 * - The bytecode is laid out by a profile of a real start (Bun's `--bytecode-order`): a first build
 *   is started once in a temporary folder, answers a few requests and stops, and the final build
 *   puts the functions that run used at the front, so a start reads and decodes less of itself.
 * - Start-up code stays in the interpreter (`jitPolicy`) until the first request, which restores
 *   the normal policy (src/shared/jit-policy.ts): code that runs once never repays its JIT
 *   compilation, whose memory would stay for good.
 *
 * A profile that cannot be recorded (no loopback, say) leaves a working executable without it,
 * with a warning on stderr; a build that fails fails the command.
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const ROOT = join(import.meta.dir, "../..");
const OUTFILE = join(ROOT, "dist/cairn");
/** How much later than normal start-up code tiers up into the JIT (1 is the normal policy). */
const START_JIT_POLICY = 100;
/** What a start does besides listening, so those paths are in the profile too. */
const WARM_PATHS = ["/healthz", "/readyz", "/api/init/status", "/.well-known/openid-configuration", "/.well-known/jwks.json", "/setup"];
const RECORDING_TIMEOUT_MS = 30_000;

function compile(bytecodeOrder: string | null) {
  // Bun.build throws on a failed build, with its messages.
  return Bun.build({
    entrypoints: [join(ROOT, "src/main.ts")],
    target: "bun",
    format: "esm", // bytecode of a program with top-level await needs ESM
    bytecode: true,
    compile: { outfile: OUTFILE, bytecodeOrder, jitPolicy: START_JIT_POLICY },
  });
}

/** Starts the executable in an empty folder, asks WARM_PATHS, stops it; resolves to the profile it wrote on exit. */
async function recordStart(dir: string): Promise<string> {
  const order = join(dir, "serve.order");
  // Only what the run needs: the builder's own CAIRN_* settings must not shape the profile.
  const env = { PATH: process.env.PATH ?? "", BUN_BYTECODE_ORDER_OUT: order, CAIRN_DATA: join(dir, "data"), PORT: "0", CAIRN_WORKERS: "1", CAIRN_LOG: "info" };
  const proc = Bun.spawn([OUTFILE, "serve"], { cwd: dir, env, stdout: "pipe", stderr: "pipe" });
  const stderr = new Response(proc.stderr).text();
  const killer = setTimeout(() => proc.kill("SIGKILL"), RECORDING_TIMEOUT_MS);
  try {
    const port = await listeningPort(proc.stdout);
    for (const path of WARM_PATHS) await (await fetch(`http://127.0.0.1:${port}${path}`)).arrayBuffer();
    proc.kill("SIGTERM");
    const code = await proc.exited;
    if (code !== 0) throw new Error(`the recording run exited with ${code}`);
    if (!statSync(order, { throwIfNoEntry: false })?.size) throw new Error("the recording run wrote no profile");
    return order;
  } catch (e) {
    proc.kill("SIGKILL");
    await proc.exited;
    const said = (await stderr).trim().split("\n").slice(-3).join(" / ");
    throw new Error(`${(e as Error).message}${said ? `; it said: ${said}` : ""}`);
  } finally {
    clearTimeout(killer);
  }
}

/** The port of the server's `listening` log line (it was started on port 0); the rest of its output is read and dropped. */
function listeningPort(stdout: ReadableStream<Uint8Array>): Promise<number> {
  return new Promise((resolve, reject) => {
    let partial = "";
    let found = false;
    const decoder = new TextDecoder();
    void (async () => {
      for await (const chunk of stdout) {
        if (found) continue;
        // Whole lines only: a read may end inside one.
        const lines = (partial + decoder.decode(chunk, { stream: true })).split("\n");
        partial = lines.pop() ?? "";
        const line = lines.find((l) => l.includes('"msg":"listening"'));
        const port = line ? (JSON.parse(line) as { port?: number }).port : undefined;
        if (port) {
          found = true;
          resolve(port);
        }
      }
      if (!found) reject(new Error("the recording run ended before it listened"));
    })().catch(reject);
  });
}

await compile(null);
const dir = mkdtempSync(join(tmpdir(), "cairn-build-"));
let order: string | null = null;
try {
  order = await recordStart(dir);
} catch (e) {
  console.warn(`dist/cairn: built without a start profile (${(e as Error).message})`);
}
try {
  if (order) {
    await compile(order);
    console.log("dist/cairn: bytecode laid out by a profile of its start");
  }
} finally {
  rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
}
