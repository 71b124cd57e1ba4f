import type { FamilySnapshot } from "./metrics.registry.ts";

/** Primary to workers: send your snapshot for scrape `id`. */
const REPORT = "metrics:report";
/** Worker to primary: its snapshot for scrape `id`. */
const REPORTED = "metrics:reported";
/** Any process to the primary: every process's snapshot. */
const GATHER = "metrics:gather";

/** A worker that has not answered by then (restarting, stuck) is left out of that scrape. */
const GATHER_WAIT_MS = 1_000;

type Report = { id: number; families: FamilySnapshot[] };

/**
 * A scrape answers for the whole instance, whichever process the kernel handed the connection
 * to: the primary asks every worker for its snapshot over the cluster channel and answers them
 * all, its own first. Alone (or in a test), it is just this process's.
 */
/**
 * What the metrics need of the instance's message bus: `context/cluster.ts`'s Cluster has this
 * shape (spelled out here so the metrics, which the context holds, import nothing from it).
 */
export type MetricsBus = {
  readonly role: string;
  tellOthers(topic: string, payload: unknown): void;
  tellPrimary(topic: string, payload: unknown): void;
  ask<T>(topic: string, payload: unknown): Promise<T>;
  on(topic: string, handler: (payload: unknown) => unknown): void;
};

export function shareAcrossWorkers(cluster: MetricsBus, workers: number, local: () => FamilySnapshot[]): () => Promise<FamilySnapshot[][]> {
  const waiting = new Map<number, (families: FamilySnapshot[]) => void>();
  let nextId = 1;
  cluster.on(REPORT, (payload) => cluster.tellPrimary(REPORTED, { id: (payload as { id: number }).id, families: local() } satisfies Report));
  cluster.on(REPORTED, (payload) => waiting.get((payload as Report).id)?.((payload as Report).families));
  cluster.on(GATHER, () => {
    const all = [local()];
    const others = cluster.role === "primary" ? workers - 1 : 0;
    if (others === 0) return all;
    const id = nextId++;
    return new Promise<FamilySnapshot[][]>((resolve) => {
      const finish = () => {
        clearTimeout(timer);
        waiting.delete(id);
        resolve(all);
      };
      const timer = setTimeout(finish, GATHER_WAIT_MS);
      waiting.set(id, (families) => {
        all.push(families);
        if (all.length === others + 1) finish();
      });
      cluster.tellOthers(REPORT, { id });
    });
  });
  return () => cluster.ask<FamilySnapshot[][]>(GATHER, null);
}
