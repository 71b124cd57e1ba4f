import type { Db } from "../db/client.ts";
import type { Cluster } from "./cluster.ts";
import { CLUSTER_TOPICS } from "../shared/cluster-topics.ts";
import { afterCommit } from "../db/tx.ts";
import type { Clock } from "../shared/clock.ts";

import type { RealtimeEvent, RealtimeEventType } from "../contract/realtime.ts";

/** ARCHITECTURE section 4 "Realtime": `id` is a per-channel (per-team) increasing sequence. */
export type BusEvent = RealtimeEvent;
export type Listener = (event: BusEvent) => void;

/** How many events per channel a reconnecting client can catch up on before it must refetch. */
const REPLAY_LIMIT = 500;

/** A subscriber: its events, and (`gap`) what to do when some may have been lost: refetch. */
type Subscriber = { listener: Listener; gap?: () => void };
/**
 * `stale`: events may have been lost since the buffer's last, which vouches for nothing until the
 * next one. `awaited`: settled() waiting for ids this process published to come back.
 */
type Channel = { next: number; buffer: BusEvent[]; subscribers: Set<Subscriber>; stale: boolean; awaited: { id: number; heard: () => void }[] };

export type EventBus = {
  /**
   * Publishes once the write it reports has committed (conventions principle 8), by construction:
   * inside a transaction it waits for the outermost commit and is dropped on a rollback.
   */
  publish(input: { type: RealtimeEventType; teamId: string; setId: string | null; data: unknown }): void;
  /** Returns the unsubscribe function. `gap` is called when events may have been lost (PostgreSQL: the listening connection dropped). */
  subscribe(teamId: string, listener: Listener, gap?: () => void): () => void;
  /**
   * The buffered events after `lastId`, or null when events after it have already left the buffer
   * (or `lastId` is ahead of the sequence, e.g. from before a restart): the client must refetch.
   */
  since(teamId: string, lastId: number): BusEvent[] | null;
  /** The last id issued for the channel (0 before any event). */
  lastEventId(teamId: string): number;
  /** Events may have been lost (the cluster's notices, issue 46): no buffer vouches for what came before, and every subscriber is told. */
  missed(): void;
  /**
   * Resolves once every event published here so far (and committed) has been delivered here. On
   * PostgreSQL an event is numbered in the database and comes back by NOTIFY, after the write's
   * answer; elsewhere it is delivered before that answer and this resolves at once.
   */
  settled(): Promise<void>;
};

type PublishInput = { type: RealtimeEventType; teamId: string; setId: string | null; data: unknown };

/**
 * One bus per app, with a bounded replay buffer per channel (team). With several workers the
 * primary numbers every event and sends it to each worker, which keeps the same buffer: an event
 * written through one worker reaches the subscribers of all, under one id everywhere. With several
 * instances on PostgreSQL, `announce` numbers it in the database and notifies every process of
 * every instance, this one included, which all deliver it as it arrives (context/pg-realtime.ts).
 */
export function createEventBus({
  db,
  clock,
  cluster,
  announce,
}: {
  db: Db;
  clock: Clock;
  cluster: Cluster;
  /** Numbers and sends the event; answers its id, or null when it could not be sent. */
  announce?: (input: PublishInput) => Promise<number | null>;
}): EventBus {
  const channels = new Map<string, Channel>();
  const channel = (teamId: string): Channel => {
    let ch = channels.get(teamId);
    if (!ch) channels.set(teamId, (ch = { next: 1, buffer: [], subscribers: new Set(), stale: false, awaited: [] }));
    return ch;
  };
  const hear = (ch: Channel, all = false) => {
    const now = ch.awaited.filter((a) => all || a.id < ch.next);
    if (now.length === 0) return;
    ch.awaited = ch.awaited.filter((a) => !now.includes(a));
    for (const a of now) a.heard();
  };
  /** Announced and not yet delivered here. */
  const inFlight = new Set<Promise<void>>();
  const announced = (input: PublishInput) => {
    const delivered = (announce as NonNullable<typeof announce>)(input).then((id) => {
      const ch = channel(input.teamId);
      if (id === null || id < ch.next) return;
      return new Promise<void>((heard) => void ch.awaited.push({ id, heard }));
    });
    inFlight.add(delivered);
    void delivered.finally(() => inFlight.delete(delivered));
  };
  const deliver = (event: BusEvent) => {
    const ch = channel(event.teamId);
    if (event.id < ch.next) return; // seen already
    // The events in between never came here (or may not have): the buffer cannot bridge them.
    if (ch.stale || event.id > ch.next) ch.buffer = [];
    ch.stale = false;
    ch.next = event.id + 1;
    hear(ch);
    ch.buffer.push(event);
    if (ch.buffer.length > REPLAY_LIMIT) ch.buffer.splice(0, ch.buffer.length - REPLAY_LIMIT);
    // Delivered after the writer's own answer: a fan-out to many clients must not delay it. The
    // listeners are those subscribed now; a later subscriber finds the event in the replay buffer.
    const listeners = [...ch.subscribers].map((s) => s.listener);
    setImmediate(() => {
      for (const listener of listeners) {
        try {
          listener(event);
        } catch {
          // One broken subscriber must not fail the write nor starve the others.
        }
      }
    });
  };
  /** Where events get their ids: the primary, or the only process. */
  const sequence = (input: PublishInput) => {
    const event: BusEvent = { id: channel(input.teamId).next, ...input, at: new Date(clock.now()).toISOString() };
    deliver(event);
    cluster.tellOthers(CLUSTER_TOPICS.busEvent, event);
  };
  cluster.on(CLUSTER_TOPICS.busPublish, (input) => sequence(input as PublishInput));
  // One event from the primary; on PostgreSQL, the events one transaction numbered, in order.
  cluster.on(CLUSTER_TOPICS.busEvent, (events) => {
    for (const event of [events].flat()) deliver(event as BusEvent);
  });
  return {
    publish: announce
      ? (input) => afterCommit(db, () => announced(input))
      : (input) => afterCommit(db, () => cluster.tellPrimary(CLUSTER_TOPICS.busPublish, input)),
    subscribe(teamId, listener, gap) {
      const ch = channel(teamId);
      const subscriber: Subscriber = { listener, gap };
      ch.subscribers.add(subscriber);
      return () => void ch.subscribers.delete(subscriber);
    },
    since(teamId, lastId) {
      const ch = channel(teamId);
      const latest = ch.next - 1;
      if (ch.stale || !Number.isInteger(lastId) || lastId < 0 || lastId > latest) return null;
      if (lastId === latest) return [];
      const first = ch.buffer[0]?.id ?? ch.next;
      if (lastId < first - 1) return null;
      return ch.buffer.filter((e) => e.id > lastId);
    },
    lastEventId: (teamId) => channel(teamId).next - 1,
    missed() {
      for (const ch of channels.values()) {
        ch.stale = true;
        // What was lost never comes.
        hear(ch, true);
        const gaps = [...ch.subscribers].flatMap((s) => (s.gap ? [s.gap] : []));
        setImmediate(() => {
          for (const gap of gaps) {
            try {
              gap();
            } catch {
              // As for an event: one broken subscriber must not keep the others from hearing it.
            }
          }
        });
      }
    },
    async settled() {
      while (inFlight.size > 0) await Promise.all(inFlight);
    },
  };
}
