import { classifyError, DatabaseUnavailableError } from "./errors.ts";

export type ListenEvents = {
  /** The listening connection dropped: notifications may be missed until onListenRestored. */
  onListenLost?: (error: Error) => void;
  /** Every channel is subscribed again; what was missed meanwhile is unknown (drop caches). */
  onListenRestored?: () => void;
  /** A message handler threw: reported here rather than as an uncaught exception. */
  onNotifyError?: (error: unknown, channel: string) => void;
};

export type Subscription = { unlisten(): Promise<void> };

type Registration = { channel: string; deliver: (payload: string) => void; current: Bun.SQL.ListenSubscription | null };

// Bun's own reconnection backs off to tens of seconds; this one tries at least every second.
const RETRY_MAX_MS = 1000;
const RETRY_FIRST_MS = 50;

/**
 * LISTEN on a connection of its own (a pooled one would lose its subscriptions when handed out),
 * in a Bun.SQL client of its own, so that client's onclose is this connection's drop. On a drop
 * the client is replaced and every channel subscribed again, retried until the server answers.
 */
export function createListener(url: string, connectTimeoutS: number, events: ListenEvents) {
  const registrations = new Set<Registration>();
  let client: Bun.SQL | null = null;
  let lost = false;
  let closed = false;

  const connect = () => {
    const made: Bun.SQL = new Bun.SQL(url, { max: 1, connectionTimeout: connectTimeoutS, onclose: (error) => dropped(made, error) });
    return made;
  };
  const discard = (old: Bun.SQL) => old.close({ timeout: 0 }).catch(() => {});

  function dropped(from: Bun.SQL, error: Error | null) {
    if (closed || lost || from !== client) return;
    client = null;
    void discard(from); // stops Bun's own reconnection
    if (registrations.size === 0) return;
    lost = true;
    for (const registration of registrations) registration.current = null;
    events.onListenLost?.(error ?? new Error("listening connection closed"));
    void resubscribe();
  }

  async function resubscribe() {
    for (let attempt = 0; !closed; attempt++) {
      const next = connect();
      client = next;
      try {
        for (const registration of registrations) {
          registration.current = await next.listen(registration.channel, registration.deliver);
          // Unlistened meanwhile.
          if (!registrations.has(registration)) await registration.current.unlisten();
        }
        if (closed) return void discard(next);
        lost = false;
        events.onListenRestored?.();
        return;
      } catch {
        client = null;
        await discard(next);
        await Bun.sleep(Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** attempt) * (0.5 + Math.random() / 2));
      }
    }
  }

  return {
    async listen(channel: string, onMessage: (payload: string) => void): Promise<Subscription> {
      if (closed) throw new Error("the client is closed");
      if (lost) throw new DatabaseUnavailableError("the listening connection is down");
      client ??= connect();
      const registration: Registration = {
        channel,
        deliver(payload) {
          try {
            onMessage(payload);
          } catch (error) {
            (events.onNotifyError ?? console.error)(error, channel);
          }
        },
        current: null,
      };
      try {
        registration.current = await client.listen(channel, registration.deliver);
      } catch (error) {
        throw classifyError(error);
      }
      registrations.add(registration);
      return {
        async unlisten() {
          if (!registrations.delete(registration)) return;
          await registration.current?.unlisten().catch(() => {});
        },
      };
    },
    async close(): Promise<void> {
      closed = true;
      registrations.clear();
      if (client) await client.close({ timeout: 1 });
    },
  };
}
