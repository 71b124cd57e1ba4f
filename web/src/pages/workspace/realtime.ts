import { REALTIME_EVENT_TYPES, REFETCH_MESSAGE, type RealtimeEvent } from "../../../../src/contract/realtime.ts";

/**
 * The workspace's live connection (ARCHITECTURE section 4, spec 2 section 6): WebSocket or SSE
 * as the user setting `realtime_transport` says; `auto` tries WebSocket and falls back to SSE.
 * Reconnects resume from the last event id; a `refetch` (gap too old) asks the page to reload.
 */
type LiveEvent = RealtimeEvent;
export type Transport = "ws" | "sse" | "auto";
export type LiveStatus = "connecting" | "live" | "offline";
type Handlers = { onEvent: (e: LiveEvent) => void; onRefetch: () => void; onStatus?: (s: LiveStatus, via: "ws" | "sse") => void };

export function connectLive(teamId: string, transport: Transport, handlers: Handlers): () => void {
  let stopped = false;
  let lastId: number | null = null;
  let close = () => {};
  let retry: ReturnType<typeof setTimeout> | undefined;
  let delay = 500;
  const q = `teamId=${encodeURIComponent(teamId)}`;

  const deliver = (event: LiveEvent) => {
    if (typeof event.id === "number") lastId = event.id;
    handlers.onEvent(event);
  };

  const viaSse = () => {
    handlers.onStatus?.("connecting", "sse");
    // EventSource resends Last-Event-ID on its own reconnects.
    const source = new EventSource(`/api/realtime/sse?${q}`);
    source.onopen = () => handlers.onStatus?.("live", "sse");
    source.onerror = () => handlers.onStatus?.(source.readyState === EventSource.CLOSED ? "offline" : "connecting", "sse");
    for (const type of REALTIME_EVENT_TYPES) source.addEventListener(type, (m) => deliver(JSON.parse((m as MessageEvent).data)));
    source.addEventListener(REFETCH_MESSAGE, () => handlers.onRefetch());
    close = () => source.close();
  };

  const viaWs = (fallback: boolean) => {
    handlers.onStatus?.("connecting", "ws");
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const since = lastId === null ? "" : `&since=${lastId}`;
    const socket = new WebSocket(`${scheme}://${location.host}/api/realtime/ws?${q}${since}`);
    let opened = false;
    socket.onopen = () => {
      opened = true;
      delay = 500;
      handlers.onStatus?.("live", "ws");
    };
    socket.onmessage = (m) => {
      const message = JSON.parse(String(m.data)) as LiveEvent | { type: typeof REFETCH_MESSAGE; lastId: number };
      if (message.type === REFETCH_MESSAGE) {
        lastId = message.lastId;
        handlers.onRefetch();
      } else deliver(message);
    };
    socket.onclose = () => {
      if (stopped) return;
      if (!opened && fallback) return viaSse();
      handlers.onStatus?.("offline", "ws");
      retry = setTimeout(() => viaWs(false), delay);
      delay = Math.min(delay * 2, 15_000);
    };
    close = () => socket.close();
  };

  if (transport === "sse") viaSse();
  else viaWs(transport === "auto");
  return () => {
    stopped = true;
    clearTimeout(retry);
    close();
  };
}
