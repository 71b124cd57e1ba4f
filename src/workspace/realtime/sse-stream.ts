import type { AppContext } from "../../context/context.ts";
import { REFETCH_MESSAGE } from "../../contract/realtime.ts";
import type { Sink, Subscription } from "./realtime-hub.ts";

/** Keeps proxies and idle timers from closing a quiet stream. */
export const HEARTBEAT_MS = 25_000;

type Server = { timeout(request: Request, seconds: number): void } | null | undefined;

const parseId = (raw: string | null | undefined): number | null => (raw != null && /^\d{1,15}$/.test(raw.trim()) ? Number(raw.trim()) : null);

/** Every HEARTBEAT_MS, the hub's check of the subscription; `alive` runs while it holds. */
export function startHeartbeat(ctx: Pick<AppContext, "log">, subscription: Subscription, alive: () => void): Timer {
  return setInterval(() => {
    // A timer cannot wait: the check runs on its own, and a failed read only skips this beat.
    void subscription.beat().then(
      (holds) => holds && alive(),
      (e: unknown) => ctx.log.warn("realtime: a heartbeat's check failed", { error: (e as Error).message }),
    );
  }, HEARTBEAT_MS);
}

const encoder = new TextEncoder();
const CONNECTED = encoder.encode(": connected\n\n");
const HEARTBEAT = encoder.encode(": heartbeat\n\n");

/**
 * A Server-Sent Events stream of one team's events (ARCHITECTURE section 4 "Realtime"): `join`
 * puts it in the realtime hub, which replays what came after `Last-Event-ID` (or says `refetch`
 * when the gap is too old), then sends the live events this caller may see and closes the stream
 * when that right ends. Heartbeats while the hub's re-check holds; null from `join`: no right now.
 */
export function sseResponse(
  ctx: AppContext,
  {
    request,
    server,
    join,
  }: { request: Request; server: Server; join: (since: number | null, sink: Sink) => Promise<Subscription | null> | Subscription | null },
): Response {
  // Bun closes connections idle for 10 s by default; this stream is kept alive by heartbeats.
  server?.timeout(request, 0);
  let stop = () => {};
  let started = false;
  // Bun's direct stream: each frame goes straight to the socket, with no queue between (about half
  // the CPU of a default stream's enqueue, for every subscriber of every event).
  const source: Bun.DirectUnderlyingSource = {
    type: "direct",
    async pull(controller) {
      // Pulled again only by a reader, once this call has settled: the stream was over by then.
      if (started) return;
      started = true;
      let closed = false;
      let subscription: Subscription | null = null;
      let heartbeat: Timer | undefined;
      let counted: (() => void) | undefined;
      const write = (bytes: Uint8Array) => {
        if (closed) return;
        void controller.write(bytes);
        void controller.flush();
      };
      const over = new Promise<void>((resolve) => {
        stop = () => {
          if (closed) return;
          closed = true;
          clearInterval(heartbeat);
          subscription?.leave();
          counted?.();
          try {
            controller.close();
          } catch {
            // Already closed by the client.
          }
          resolve();
        };
      });
      const sink: Sink = {
        // One frame, encoded once per event, for every stream.
        send: (wire) => write(wire.frame),
        refetch: (lastId) => write(encoder.encode(`id: ${lastId}\nevent: ${REFETCH_MESSAGE}\ndata: ${JSON.stringify({ lastId })}\n\n`)),
        close: () => stop(),
      };
      write(CONNECTED);
      const joined = await join(parseId(request.headers.get("last-event-id")), sink);
      // The hub closed it, or the client went, while it joined.
      if (!joined || closed || request.signal.aborted) {
        joined?.leave();
        stop();
        return over;
      }
      subscription = joined;
      counted = ctx.metrics.connectionOpened("sse");
      heartbeat = startHeartbeat(ctx, joined, () => write(HEARTBEAT));
      request.signal.addEventListener("abort", () => stop());
      return over;
    },
    cancel() {
      stop();
    },
  };
  // The DOM library's typing (loaded for the SPA) hides Bun's overload for a direct source.
  const stream = new ReadableStream(source as unknown as UnderlyingDefaultSource<Uint8Array>);
  return new Response(stream, {
    headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-store", connection: "keep-alive", "x-accel-buffering": "no" },
  });
}

export { parseId };
