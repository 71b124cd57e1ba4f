import { CLUSTER_TOPICS, type ClusterTopic } from "../shared/cluster-topics.ts";
import type { FamilySnapshot } from "./metrics.registry.ts";

/** A worker that has not answered by then (restarting, stuck) is left out of that scrape. */
const GATHER_WAIT_MS = 1_000;

type Report = { id: number; families: FamilySnapshot[] };

/**
 * What the metrics need of the instance's message bus: `context/cluster.ts`'s Cluster has this
 * shape (spelled out here so the metrics, which the context holds, import nothing from it).
 */
export type MetricsBus = {
  readonly role: string;
  tellOthers(topic: ClusterTopic, payload: unknown): void;
  tellPrimary(topic: ClusterTopic, payload: unknown): void;
  ask<T>(topic: ClusterTopic, payload: unknown): Promise<T>;
  on(topic: ClusterTopic, handler: (payload: unknown) => unknown): void;
};

/**
 * A scrape answers for the whole instance, whichever process the kernel handed the connection
 * to: the primary asks every worker for its snapshot over the cluster channel and answers them
 * all, its own first. Alone (or in a test), it is just this process's.
 */
export function shareAcrossWorkers(cluster: MetricsBus, workers: number, local: () => FamilySnapshot[]): () => Promise<FamilySnapshot[][]> {
  const waiting = new Map<number, (families: FamilySnapshot[]) => void>();
  let nextId = 1;
  cluster.on(CLUSTER_TOPICS.metricsReport, (payload) =>
    cluster.tellPrimary(CLUSTER_TOPICS.metricsReported, { id: (payload as { id: number }).id, families: local() } satisfies Report),
  );
  cluster.on(CLUSTER_TOPICS.metricsReported, (payload) => waiting.get((payload as Report).id)?.((payload as Report).families));
  cluster.on(CLUSTER_TOPICS.metricsGather, () => {
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
      cluster.tellOthers(CLUSTER_TOPICS.metricsReport, { id });
    });
  });
  return () => cluster.ask<FamilySnapshot[][]>(CLUSTER_TOPICS.metricsGather, null);
}
