/**
 * Deleting what can no longer be used: each module that owns a one-use or expiring table
 * registers how to clear its own leftovers at boot, and the purge job runs them all.
 */
export type Purges = {
  register(name: string, purge: (now: number) => void): void;
  /** Runs every registered purge; one that throws does not stop the others. Answers the failures. */
  run(now: number): { name: string; error: unknown }[];
};

export function createPurges(): Purges {
  const purges: { name: string; purge: (now: number) => void }[] = [];
  return {
    register: (name, purge) => void purges.push({ name, purge }),
    run(now) {
      const failures: { name: string; error: unknown }[] = [];
      for (const { name, purge } of purges) {
        try {
          purge(now);
        } catch (error) {
          failures.push({ name, error });
        }
      }
      return failures;
    },
  };
}

/** Ended sessions and grants stay this long (the session list, the audit of who signed in), then go. */
export const KEEP_ENDED_MS = 30 * 86_400_000;
