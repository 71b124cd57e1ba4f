import type { SpawnOptions, Subprocess } from "bun";

/**
 * Every child a test starts dies with the test process, passed or failed: each runs in a process
 * group of its own, so one signal reaches it and whatever it started (a primary's workers, a
 * prefork server's children), and every group is killed once the test run ends (the preload's
 * global afterAll: `bun test` fires no exit event) or this process is stopped by a signal. A test
 * still stops its children itself (finally, afterAll); this is for when it never got there.
 */
const owned = new Set<Subprocess>();

/** Bun.spawn, in a process group of its own that is killed when the test process ends. */
export function spawnOwned<
  const In extends SpawnOptions.Writable = "ignore",
  const Out extends SpawnOptions.Readable = "pipe",
  const Err extends SpawnOptions.Readable = "inherit",
>(command: string[], options: SpawnOptions.SpawnOptions<In, Out, Err> = {}): Subprocess<In, Out, Err> {
  const proc = Bun.spawn<In, Out, Err>(command, { ...options, detached: true });
  owned.add(proc);
  return proc;
}

/** Signals the child's whole process group (the child and all it started); nothing when it is gone. */
export function killGroup(proc: Subprocess, signal: NodeJS.Signals = "SIGKILL"): void {
  try {
    process.kill(-proc.pid, signal);
  } catch {
    // ESRCH: the group has ended.
  }
}

/** Kills every child group still running: the end of a test run. */
export function killOwned(): void {
  for (const proc of owned) killGroup(proc);
  owned.clear();
}

// A script that is not `bun test` (a benchmark) gets the exit event.
process.on("exit", killOwned);
// Interrupted (Ctrl-C, a CI timeout): the children, in groups of their own, would not get the signal.
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const)
  process.once(signal, () => {
    killOwned();
    process.kill(process.pid, signal);
  });
