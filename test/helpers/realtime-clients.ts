import { waitFor } from "./wait.ts";

/** One Server-Sent Events frame: comment lines dropped, `data` parsed as JSON. */
export type Frame = { id: string | null; event: string; data: any };

/**
 * An SSE client over fetch: frames as they arrive, every wait bounded, closed by `close()`.
 * `url` is the stream's full URL; `headers` what the request carries (cookie, Last-Event-ID).
 * Each stream opens a connection of its own, as a browser's EventSource does: from the shared
 * pool it could take an idle one an earlier request left, and with CAIRN_WORKERS=2 streams opened
 * together would then all reach the worker those requests did.
 */
export async function openSse(url: string, headers: Record<string, string> = {}) {
  const abort = new AbortController();
  const res = await new Bun.FetchSession({ keepAlive: false }).fetch(url, { headers, signal: abort.signal });
  const frames: Frame[] = [];
  let buffer = "";
  const reader = res.ok ? res.body!.getReader() : null;
  const decoder = new TextDecoder();
  let pending: ReturnType<NonNullable<typeof reader>["read"]> | null = null;
  let connected = false;
  let ended = false;
  /** Reads one chunk within `ms`: false when none came. */
  async function readSome(ms: number): Promise<boolean> {
    if (!reader || ended) return false;
    // A read that loses the race stays pending and is awaited next time: no chunk is dropped.
    pending ??= reader.read();
    let timer: Timer | undefined;
    const chunk = await Promise.race([pending, new Promise<null>((r) => (timer = setTimeout(() => r(null), ms)))]).catch(() => ({
      done: true,
      value: undefined,
    }));
    clearTimeout(timer);
    if (chunk === null) return false;
    pending = null;
    if (chunk.done) {
      ended = true;
      return false;
    }
    buffer += decoder.decode(chunk.value, { stream: true });
    let end: number;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      if (block.startsWith(": connected")) connected = true;
      const lines = block.split("\n").filter((l) => !l.startsWith(":"));
      if (lines.length === 0) continue;
      const field = (name: string) => lines.find((l) => l.startsWith(`${name}: `))?.slice(name.length + 2) ?? null;
      frames.push({ id: field("id"), event: field("event") ?? "message", data: JSON.parse(field("data") ?? "null") });
    }
    return true;
  }
  /** Reads until `pred` holds for a frame received so far, or fails after `ms`. */
  async function until(pred: (f: Frame) => boolean, ms = 3000): Promise<Frame> {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = frames.find(pred);
      if (found) return found;
      const left = deadline - Date.now();
      if (ended) throw new Error(`SSE stream ended; got ${JSON.stringify(frames.map((f) => f.event))}`);
      if (left <= 0 || !reader) throw new Error(`no matching SSE frame within ${ms} ms; got ${JSON.stringify(frames.map((f) => f.event))}`);
      await readSome(left);
    }
  }
  return {
    res,
    frames,
    until,
    /** Waits for the server's first comment line: the subscription is in place. */
    async ready() {
      const deadline = Date.now() + 3000;
      while (!connected && !ended && Date.now() < deadline) await readSome(deadline - Date.now());
      if (!connected) throw new Error("the SSE stream did not say it was connected");
    },
    /** Reads until the server ends the stream: true when it did within `ms` (what came meanwhile is in `frames`). */
    async ended(ms = 5000): Promise<boolean> {
      const deadline = Date.now() + ms;
      while (!ended && Date.now() < deadline) await readSome(deadline - Date.now());
      return ended;
    },
    close: () => {
      abort.abort();
      reader?.cancel().catch(() => {});
    },
  };
}

/** A WebSocket client with request headers (Bun's `headers` option); messages collected, waits bounded. */
export function openWs(url: string, headers: Record<string, string> = {}) {
  const ws = new WebSocket(url, { headers } as any);
  const messages: any[] = [];
  let closedWith: number | undefined;
  ws.onmessage = (m) => messages.push(JSON.parse(String(m.data)));
  ws.addEventListener("close", (e) => (closedWith = e.code));
  const opened = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("WebSocket did not open")), 3000);
    ws.onopen = () => (clearTimeout(timer), resolve());
    ws.onerror = () => (clearTimeout(timer), reject(new Error("WebSocket refused")));
  });
  const until = (pred: (m: any) => boolean, ms = 3000) =>
    waitFor(() => messages.find(pred), { what: "a matching WebSocket message", timeoutMs: ms, intervalMs: 10 });
  return {
    ws,
    messages,
    opened,
    until,
    /** The close code once the server has closed the socket, failing after `ms`. */
    closed: (ms = 5000) => waitFor(() => closedWith, { what: "the server to close the WebSocket", timeoutMs: ms, intervalMs: 10 }),
    close: () => ws.close(),
  };
}
