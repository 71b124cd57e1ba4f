/**
 * The workspace's live connection (ARCHITECTURE section 4, spec 2 section 6): WebSocket or SSE
 * as the user setting `realtime_transport` says; `auto` tries WebSocket and falls back to SSE.
 * Reconnects resume from the last event id; a `refetch` (gap too old) asks the page to reload.
 */
export type LiveEvent = { id: number; type: string; teamId: string; setId: string | null; data: unknown; at: string };
export type Transport = "ws" | "sse" | "auto";
export type LiveStatus = "connecting" | "live" | "offline";
type Handlers = { onEvent: (e: LiveEvent) => void; onRefetch: () => void; onStatus?: (s: LiveStatus, via: "ws" | "sse") => void };

const SSE_EVENTS = [
  "todo:created",
  "todo:updated",
  "todo:deleted",
  "todo:reordered",
  "todo:moved",
  "todo:assigned",
  "comment:created",
  "comment:deleted",
  "set:created",
  "set:updated",
  "set:deleted",
  "set:reordered",
  "set:imported",
];

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
    for (const type of SSE_EVENTS) source.addEventListener(type, (m) => deliver(JSON.parse((m as MessageEvent).data)));
    source.addEventListener("refetch", () => handlers.onRefetch());
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
      const message = JSON.parse(String(m.data)) as LiveEvent;
      if (message.type === "refetch") {
        lastId = (message as unknown as { lastId: number }).lastId;
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
