type WaitOptions = {
  /** What the test waits for, for the timeout message ("the request's log line"). */
  what: string;
  timeoutMs?: number;
  intervalMs?: number;
};

/**
 * Polls `condition` until it returns a truthy value and resolves with that value; fails with
 * "timed out after N ms waiting for <what>". Tests wait for what they need rather than sleep a
 * guessed time, so they pass as soon as it happens and say what never did.
 */
export async function waitFor<T>(
  condition: () => T | Promise<T>,
  { what, timeoutMs = 2000, intervalMs = 5 }: WaitOptions,
): Promise<Exclude<T, false | null | undefined>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await condition();
    if (value) return value as Exclude<T, false | null | undefined>;
    if (Date.now() >= deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await Bun.sleep(intervalMs);
  }
}
