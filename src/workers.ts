import type { Subprocess } from "bun";
import type { primaryCluster, WorkerLink } from "./context/cluster.ts";
import type { Logger } from "./shared/log.ts";

/** Set in a worker's environment: its number, 1 to N-1 (the primary is 0). */
const WORKER_ENV = "CAIRN_WORKER";

/** A worker that stopped on its own is started again after this pause. */
const RESTART_PAUSE_MS = 1_000;
/** Workers get this long to finish their requests on shutdown, then are killed. */
const STOP_GRACE_MS = 10_000;

/** This process's worker number when the primary started it, else null (it is the primary or alone). */
export function workerIndex(env: Record<string, string | undefined> = process.env): number | null {
  const raw = env[WORKER_ENV];
  return raw !== undefined && /^[1-9]\d{0,2}$/.test(raw) ? Number(raw) : null;
}

/** This program again: the executable itself when compiled, else Bun with the entry file. */
function selfCommand(): string[] {
  return Bun.main.startsWith("/$bunfs/") ? [process.execPath] : [process.execPath, Bun.main];
}

/**
 * Starts workers 1 to count-1 (`cairn serve` again, with CAIRN_WORKER set and an IPC channel to
 * this primary), restarts one that stops on its own, and stops them all on request.
 */
export function startWorkers(cluster: ReturnType<typeof primaryCluster>, count: number, log: Logger) {
  const running = new Set<Subprocess>();
  let stopping = false;
  const spawn = (index: number) => {
    let proc: Subprocess | null = null;
    const link: WorkerLink = { send: (message) => proc?.send(message) };
    proc = Bun.spawn([...selfCommand(), "serve"], {
      env: { ...process.env, [WORKER_ENV]: String(index) },
      stdio: ["ignore", "inherit", "inherit"],
      ipc: (message) => cluster.receive(link, message),
      onExit: (_proc, code, signal) => {
        cluster.detach(link);
        if (proc) running.delete(proc);
        if (stopping) return;
        log.error("worker stopped; starting it again", { worker: index, code, signal });
        setTimeout(() => stopping || spawn(index), RESTART_PAUSE_MS);
      },
    });
    cluster.attach(link);
    running.add(proc);
  };
  for (let index = 1; index < count; index++) spawn(index);
  return {
    /** Asks every worker to stop (they finish their requests), and kills those still there after the grace. */
    async stop(): Promise<void> {
      stopping = true;
      const exits = [...running].map((proc) => {
        proc.kill("SIGTERM");
        return proc.exited;
      });
      await Promise.race([Promise.all(exits), Bun.sleep(STOP_GRACE_MS)]);
      for (const proc of running) proc.kill("SIGKILL");
    },
  };
}
