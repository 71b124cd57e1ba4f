import type { PgClient, PgOptions, Queryable } from "../db/pg/client.ts";
import { pgDeleteBefore } from "../db/pg/purge-step.ts";
import type { Clock } from "../shared/clock.ts";
import { CLUSTER_TOPICS, type ClusterTopic } from "../shared/cluster-topics.ts";
import { randomToken } from "../shared/crypto.ts";
import type { Cluster } from "./cluster.ts";

/** The channel every process of every instance on the database listens on. */
export const CLUSTER_CHANNEL = "cairn_cluster";

/** NOTIFY refuses a payload of 8000 bytes or more: a longer notice is stored and notified by its id. */
export const MAX_INLINE_BYTES = 7_500;

/** A stored notice is read within moments of its NOTIFY; this long after, it goes with the purge. */
const KEEP_STORED_MS = 60 * 60_000;

/** What concerns every instance. Metrics and the window limits' questions stay within the instance. */
const ACROSS = new Set<string>([
  CLUSTER_TOPICS.realtimeRights,
  CLUSTER_TOPICS.svgForget,
  CLUSTER_TOPICS.docsForgetLocalTrees,
  CLUSTER_TOPICS.mailWake,
  CLUSTER_TOPICS.busEvent,
]);

/** Topics whose handler, given null, drops everything it keeps: run when notices may have been missed. */
const START_OVER: readonly ClusterTopic[] = [CLUSTER_TOPICS.svgForget, CLUSTER_TOPICS.docsForgetLocalTrees];

/** `f`: the sending process (null: every process, the sender's own included); `w`: primaries only. */
type Notice = { f: string | null; t: string; p: unknown; w?: 1 };
/** A notice too long for NOTIFY: the row of cluster_messages holding it. */
type Stored = { r: number; f: string | null; w?: 1 };

export type PgCluster = Cluster & {
  /**
   * Runs `topic`'s handler in every process of every instance, this one included, from the
   * notification `tx` sends when it commits (none if it rolls back). Every process hears the
   * notices of one channel in commit order.
   */
  announce(tx: Queryable, topic: ClusterTopic, payload: unknown): Promise<void>;
  /** `handler` runs whenever notices may have been lost: the listening connection dropped or came back, a stored notice could not be read. */
  onMissed(handler: () => void): void;
};

/** The listening connection's callbacks, given to the client when it is made (before the cluster is). */
export function listenRelay() {
  const heard = new Set<() => void>();
  const fire = () => {
    for (const handler of heard) handler();
  };
  const events: Pick<PgOptions, "onListenLost" | "onListenRestored"> = { onListenLost: fire, onListenRestored: fire };
  return { events, onChange: (handler: () => void) => void heard.add(handler) };
}

export type ListenRelay = ReturnType<typeof listenRelay>;

/**
 * The instance's cluster (`local`: its processes over Bun's IPC) stretched over every instance on
 * one PostgreSQL database (issue 46). The topics of ACROSS travel by NOTIFY on CLUSTER_CHANNEL,
 * which every process LISTENs on itself, the instance's own workers included, so they no longer
 * go over the IPC; the others stay on it. A notice carries its sender's id, so no process handles
 * its own twice; notices are handled in the order they arrive, a stored one read first.
 * Returns once this process listens.
 */
export async function pgCluster(
  pg: PgClient,
  local: Cluster,
  relay: ListenRelay,
  { clock, onError }: { clock: Clock; onError: (error: unknown) => void },
): Promise<PgCluster> {
  // Two apps in one process (tests) are two processes here.
  const me = randomToken(9);
  const handlers = new Map<string, (payload: unknown) => unknown>();
  const missedHandlers = new Set<() => void>();

  const fits = (text: string) => Buffer.byteLength(text) <= MAX_INLINE_BYTES;
  const store = async (q: Queryable, text: string, notice: Notice) => {
    const { rows } = await q.query<{ id: number }>(`INSERT INTO "cluster_messages" ("body", "created_at") VALUES ($1, $2::bigint) RETURNING "id"`, [
      text,
      clock.now(),
    ]);
    const stored: Stored = { r: (rows[0] as { id: number }).id, f: notice.f, ...(notice.w ? { w: 1 } : {}) };
    await q.notify(CLUSTER_CHANNEL, JSON.stringify(stored));
  };
  const send = (q: Queryable, notice: Notice) => {
    const text = JSON.stringify(notice);
    return fits(text) ? q.notify(CLUSTER_CHANNEL, text) : store(q, text, notice);
  };
  /**
   * Outside a transaction, one after another, so they are heard in the order they were sent, as
   * over the IPC. A stored notice is written and notified in one transaction: its row is there when it is heard.
   */
  let sending: Promise<void> = Promise.resolve();
  const post = (notice: Notice) => {
    const text = JSON.stringify(notice);
    const sent = () => (fits(text) ? pg.notify(CLUSTER_CHANNEL, text) : pg.transaction((tx) => store(tx, text, notice), { isolation: "read committed" }));
    sending = sending.then(sent).catch(onError);
  };

  const handle = (notice: Notice) => {
    try {
      const result = handlers.get(notice.t)?.(notice.p);
      if (result instanceof Promise) result.catch(onError);
    } catch (error) {
      onError(error);
    }
  };
  const missed = () => {
    for (const topic of START_OVER) handle({ f: null, t: topic, p: null });
    for (const handler of missedHandlers) handler();
  };
  const forMe = (m: Notice | Stored) => m.f !== me && !(m.w && local.role === "worker");
  const read = async (id: number): Promise<Notice> => {
    const { rows } = await pg.query<{ body: string }>(`SELECT "body" FROM "cluster_messages" WHERE "id" = $1::bigint`, [id]);
    if (!rows[0]) throw new Error(`cluster message ${id} is gone`);
    return JSON.parse(rows[0].body) as Notice;
  };

  // In arrival order: while a stored notice is read, the notices after it wait.
  let waiting = 0;
  let turn: Promise<void> = Promise.resolve();
  const received = (text: string) => {
    let message: Notice | Stored;
    try {
      message = JSON.parse(text);
    } catch (error) {
      return onError(error);
    }
    if (!forMe(message)) return;
    if (waiting === 0 && !("r" in message)) return handle(message);
    waiting++;
    const notice = "r" in message ? read(message.r) : Promise.resolve(message);
    turn = turn
      .then(() => notice)
      .then(handle, (error) => {
        onError(error);
        missed();
      })
      .finally(() => void waiting--);
  };

  relay.onChange(missed);
  await pg.listen(CLUSTER_CHANNEL, received);

  return {
    role: local.role,
    tellOthers(topic, payload) {
      if (!ACROSS.has(topic)) return local.tellOthers(topic, payload);
      post({ f: me, t: topic, p: payload });
    },
    tellPrimary(topic, payload) {
      if (!ACROSS.has(topic)) return local.tellPrimary(topic, payload);
      // Every instance's primary: here at once when this is one.
      if (local.role !== "worker") local.tellPrimary(topic, payload);
      post({ f: me, t: topic, p: payload, w: 1 });
    },
    ask: <T>(topic: ClusterTopic, payload: unknown) => local.ask<T>(topic, payload),
    on(topic, handler) {
      local.on(topic, handler);
      handlers.set(topic, handler);
    },
    announce: (tx, topic, payload) => send(tx, { f: null, t: topic, p: payload }),
    onMissed: (handler) => void missedHandlers.add(handler),
  };
}

/** The purge of stored notices every process has long read. */
export const storedNoticesPurge = (pg: PgClient) => pgDeleteBefore(pg, "cluster_messages", "created_at", KEEP_STORED_MS);
