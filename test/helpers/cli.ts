import type { Subprocess } from "bun";
import { join } from "node:path";
import { killGroup, spawnOwned } from "./processes.ts";
import { freePort } from "./temp.ts";

export const MAIN = join(import.meta.dir, "../../src/main.ts");

/** Runs `cairn ARGS` (from source, with this Bun) to completion. */
export function cli(args: string[], env: Record<string, string> = {}, cwd?: string) {
  const proc = Bun.spawnSync([process.execPath, MAIN, ...args], { env: { ...process.env, ...env }, cwd, stdout: "pipe", stderr: "pipe" });
  return { code: proc.exitCode, stdout: proc.stdout.toString(), stderr: proc.stderr.toString() };
}

/**
 * Yields the lines a child process writes to a stream, as they come. Read it with `next()` (or
 * `until`): breaking out of a for-await would close the stream.
 */
export async function* lines(stream: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffer = "";
  for await (const chunk of stream) {
    buffer += decoder.decode(chunk, { stream: true });
    let nl: number;
    while ((nl = buffer.indexOf("\n")) >= 0) {
      yield buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
    }
  }
  if (buffer) yield buffer;
}

/** Reads lines until one satisfies `done`; returns it, or null when the stream ended first. */
export async function until(reader: AsyncGenerator<string>, done: (line: string) => boolean): Promise<string | null> {
  for (;;) {
    const next = await reader.next();
    if (next.done) return null;
    if (done(next.value)) return next.value;
  }
}

export type RunningServer = {
  proc: Subprocess<"ignore", "pipe", "pipe">;
  url: string;
  /** Lines on stdout (the JSON log) and on stderr, as they come; complete once `exited` resolves. */
  log: string[];
  stderr: string[];
  exited: Promise<number>;
  /** Signals the server (SIGTERM: a clean stop) and answers its exit code; its process group is killed in any case. */
  stop(signal?: NodeJS.Signals): Promise<number>;
};

/** Starts `cairn serve` in a child process (killed with its workers when the test process ends) and resolves once it listens. */
export async function startServer(env: Record<string, string>, command: string[] = [process.execPath, MAIN], cwd?: string): Promise<RunningServer> {
  const port = freePort();
  const proc = spawnOwned([...command, "serve"], {
    env: { ...process.env, PORT: String(port), CAIRN_ISSUER: `http://127.0.0.1:${port}`, ...env },
    cwd,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const log: string[] = [];
  const stderr: string[] = [];
  // Drain both pipes to the end, so the child never blocks on a full one.
  const collect = (into: string[]) => (line: string) => {
    into.push(line);
    return false;
  };
  const stderrDone = until(lines(proc.stderr), collect(stderr));
  const reader = lines(proc.stdout);
  const ready = await until(reader, (line) => {
    log.push(line);
    return line.includes('"msg":"listening"');
  });
  if (ready === null) {
    await stderrDone;
    throw new Error(`server did not start: ${stderr.join("\n")}`);
  }
  const stdoutDone = until(reader, collect(log));
  const exited = Promise.all([proc.exited, stdoutDone, stderrDone]).then(([code]) => code);
  const stop = async (signal: NodeJS.Signals = "SIGTERM") => {
    try {
      proc.kill(signal);
      return await exited;
    } finally {
      killGroup(proc);
    }
  };
  return { proc, url: `http://127.0.0.1:${port}`, log, stderr, exited, stop };
}
