import type { AppContext } from "../../context/context.ts";
import { type RealtimeEvent, REFETCH_MESSAGE } from "../../contract/realtime.ts";

/** Keeps proxies and idle timers from closing a quiet stream. */
export const HEARTBEAT_MS = 25_000;

export type Verdict = "send" | "skip" | "close";
type Server = { timeout(request: Request, seconds: number): void } | null | undefined;

const parseId = (raw: string | null | undefined): number | null => (raw != null && /^\d{1,15}$/.test(raw.trim()) ? Number(raw.trim()) : null);

/**
 * A Server-Sent Events stream of one team's bus (ARCHITECTURE section 4 "Realtime"): replay after
 * `Last-Event-ID` (or a `refetch` when the gap is too old), then live events, each passed through
 * `verdict` (which may end the stream), and heartbeats while `alive()` holds.
 */
export function sseResponse(
  ctx: AppContext,
  {
    request,
    server,
    teamId,
    verdict,
    alive,
    frame,
  }: { request: Request; server: Server; teamId: string; verdict: (e: RealtimeEvent) => Verdict; alive: () => boolean; frame: (e: RealtimeEvent) => string },
): Response {
  // Bun closes connections idle for 10 s by default; this stream is kept alive by heartbeats.
  server?.timeout(request, 0);
  const encoder = new TextEncoder();
  let stop = () => {};
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      let closed = false;
      const write = (text: string) => {
        if (!closed) controller.enqueue(encoder.encode(text));
      };
      const push = (event: RealtimeEvent) => {
        const v = verdict(event);
        if (v === "close") return stop();
        if (v === "send") write(frame(event));
      };
      const lastId = parseId(request.headers.get("last-event-id"));
      write(": connected\n\n");
      if (lastId !== null) {
        const missed = ctx.bus.since(teamId, lastId);
        if (missed === null) {
          const now = ctx.bus.lastEventId(teamId);
          write(`id: ${now}\nevent: ${REFETCH_MESSAGE}\ndata: ${JSON.stringify({ lastId: now })}\n\n`);
        } else for (const event of missed) push(event);
      }
      if (closed) return;
      const unsubscribe = ctx.bus.subscribe(teamId, push);
      const counted = ctx.metrics.connectionOpened("sse");
      const heartbeat = setInterval(() => {
        if (!alive()) return stop();
        write(": heartbeat\n\n");
      }, HEARTBEAT_MS);
      stop = () => {
        if (closed) return;
        closed = true;
        clearInterval(heartbeat);
        unsubscribe();
        counted();
        try {
          controller.close();
        } catch {
          // Already closed by the client.
        }
      };
      request.signal.addEventListener("abort", () => stop());
    },
    cancel() {
      stop();
    },
  });
  return new Response(stream, {
    headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-store", connection: "keep-alive", "x-accel-buffering": "no" },
  });
}

export { parseId };
