import type { RealtimeEvent, RealtimeEventType } from "../../contract/realtime.ts";
import type { AppContext } from "../../context.ts";

export type Listener = (event: RealtimeEvent) => void;

/** How many events per team a reconnecting client can catch up on before it must refetch. */
export const REPLAY_LIMIT = 500;

type TeamChannel = { next: number; buffer: RealtimeEvent[]; listeners: Set<Listener> };
type Bus = Map<string, TeamChannel>;

// One bus per app context (keyed by its database), so several apps in one process stay apart.
const buses = new WeakMap<object, Bus>();

function busOf(ctx: Pick<AppContext, "db">): Bus {
  let bus = buses.get(ctx.db);
  if (!bus) buses.set(ctx.db, (bus = new Map()));
  return bus;
}

function channel(ctx: Pick<AppContext, "db">, teamId: string): TeamChannel {
  const bus = busOf(ctx);
  let ch = bus.get(teamId);
  if (!ch) bus.set(teamId, (ch = { next: 1, buffer: [], listeners: new Set() }));
  return ch;
}

/**
 * Conventions principle 8: call only after the write's transaction has committed. A listener
 * that throws is isolated from the others and from the writer.
 */
export function publish(ctx: Pick<AppContext, "db" | "clock">, input: { type: RealtimeEventType; teamId: string; setId: string | null; data: unknown }): RealtimeEvent {
  const ch = channel(ctx, input.teamId);
  const event: RealtimeEvent = { id: ch.next++, type: input.type, teamId: input.teamId, setId: input.setId, data: input.data, at: new Date(ctx.clock.now()).toISOString() };
  ch.buffer.push(event);
  if (ch.buffer.length > REPLAY_LIMIT) ch.buffer.splice(0, ch.buffer.length - REPLAY_LIMIT);
  // Delivered after the writer's own answer: a fan-out to many clients must not delay it. The
  // listeners are those subscribed now; a later subscriber finds the event in the replay buffer.
  const listeners = [...ch.listeners];
  setImmediate(() => {
    for (const listener of listeners) {
      try {
        listener(event);
      } catch {
        // One broken subscriber must not fail the write nor starve the others.
      }
    }
  });
  return event;
}

/** Returns the unsubscribe function. */
export function subscribe(ctx: Pick<AppContext, "db">, teamId: string, listener: Listener): () => void {
  const ch = channel(ctx, teamId);
  ch.listeners.add(listener);
  return () => void ch.listeners.delete(listener);
}

/**
 * The buffered events after `lastId`, or null when events after it have already left the buffer
 * (or `lastId` is ahead of the sequence, e.g. from before a restart): the client must refetch.
 */
export function since(ctx: Pick<AppContext, "db">, teamId: string, lastId: number): RealtimeEvent[] | null {
  const ch = channel(ctx, teamId);
  const latest = ch.next - 1;
  if (!Number.isInteger(lastId) || lastId < 0 || lastId > latest) return null;
  if (lastId === latest) return [];
  const first = ch.buffer[0]?.id ?? ch.next;
  if (lastId < first - 1) return null;
  return ch.buffer.filter((e) => e.id > lastId);
}

/** The last id issued for the team (0 before any event). */
export function lastEventId(ctx: Pick<AppContext, "db">, teamId: string): number {
  return channel(ctx, teamId).next - 1;
}
