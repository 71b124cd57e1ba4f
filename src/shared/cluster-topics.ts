/**
 * Every topic the processes of one instance message each other on (`context/cluster.ts`), named
 * once so a sender and its handler cannot drift apart. Here, below the context and every product,
 * so that each user can import it without importing the others.
 */
export const CLUSTER_TOPICS = {
  /** Worker to primary: number a realtime event and send it to every process (context/event-bus.ts). */
  busPublish: "bus.publish",
  /** Primary to workers: a numbered realtime event to deliver to their subscribers (on PostgreSQL, to every process of every instance: the events one transaction numbered, context/pg-realtime.ts). */
  busEvent: "bus.event",
  /** To every other process: these sessions' or share links' rights changed; close the streams that lost them (workspace/realtime/realtime-hub.ts). */
  realtimeRights: "realtime.rights",
  /** Worker asks the primary: count a hit in a named window limit (access/window-limit.ts). */
  limitsHit: "limits.hit",
  /** To every other process: drop a share link's cached images (workspace/share-links/svg-cache.ts). */
  svgForget: "svg.forget",
  /** To every other process: read local docs folders again (docs/docs.routes.ts). */
  docsForgetLocalTrees: "docs.forget-local-trees",
  /** Primary to workers: send your metrics snapshot for one scrape (metrics/metrics.cluster.ts). */
  metricsReport: "metrics:report",
  /** Worker to primary: its snapshot for that scrape. */
  metricsReported: "metrics:reported",
  /** Any process asks the primary: every process's snapshot. */
  metricsGather: "metrics:gather",
  /** Any process to the primary: mail was enqueued, send it now (mail/outbox.service.ts). */
  mailWake: "mail.wake",
} as const;

export type ClusterTopic = (typeof CLUSTER_TOPICS)[keyof typeof CLUSTER_TOPICS];
