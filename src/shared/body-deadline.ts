import { Elysia } from "elysia";
import { payloadTooLarge, requestTimeout } from "./errors.ts";

const lateBody = (deadline: BodyDeadline) => requestTimeout(`the body did not arrive within ${deadline.ms} ms`);

/** A request body must have fully arrived this long after it is first read (the route parses it at once). */
const BODY_DEADLINE_MS = 20_000;
/** How often the reads still waiting are looked at, at most: a deadline holds to within this. */
const SWEEP_MS = 1000;

/** A body read still under way: once `deadline` passes, `late` ends it. */
type Watched = { deadline: number; late: () => void };

/**
 * The deadline every request body is read within, and the reads still waiting for their bodies:
 * one per app, built at boot (tests give a short one).
 */
export type BodyDeadline = {
  readonly ms: number;
  /** Calls `late` once the deadline passed, unless `settle` came first. */
  watch(late: () => void): Watched;
  settle(w: Watched): void;
};

/**
 * The waiting reads are swept by one timer each second (so a deadline holds to within a second;
 * a shorter deadline is swept as often as it lasts): a timer of its own for every request cost
 * more than reading a small body.
 */
export function createBodyDeadline(ms = BODY_DEADLINE_MS): BodyDeadline {
  const watched = new Set<Watched>();
  const every = Math.min(SWEEP_MS, ms);
  let sweeper: ReturnType<typeof setInterval> | undefined;
  const sweep = () => {
    const now = performance.now();
    for (const w of watched)
      if (w.deadline <= now) {
        watched.delete(w);
        w.late();
      }
    if (watched.size === 0) {
      clearInterval(sweeper);
      sweeper = undefined;
    }
  };
  return {
    ms,
    watch(late) {
      const w = { deadline: performance.now() + ms, late };
      watched.add(w);
      sweeper ??= setInterval(sweep, every).unref();
      return w;
    },
    settle: (w) => void watched.delete(w),
  };
}

/** A declared-length body read whole by the runtime, or a 408 once the deadline passed (the 408 closes the connection, which ends the read). */
function within<T>(read: Promise<T>, deadline: BodyDeadline): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const w = deadline.watch(() => reject(lateBody(deadline)));
    read.then(
      (value) => {
        deadline.settle(w);
        resolve(value);
      },
      (e) => {
        deadline.settle(w);
        reject(e);
      },
    );
  });
}

/**
 * A body handed to `take` chunk by chunk as it streams in, counted against `max` (413 past it), or
 * a 408 once the deadline passed; on either, or when `take` throws, the stream is cancelled, freeing the connection.
 */
async function streamWithin(
  body: ReadableStream<Uint8Array>,
  deadline: BodyDeadline,
  max: number,
  take: (chunk: Uint8Array) => void | Promise<void>,
): Promise<void> {
  const reader = body.getReader();
  let size = 0;
  let late = false;
  const w = deadline.watch(() => {
    late = true;
    void reader.cancel().catch(() => {});
  });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (late) throw lateBody(deadline);
      if (done) return;
      size += value.byteLength;
      if (size > max) throw payloadTooLarge(max);
      const taken = take(value);
      if (taken !== undefined) await taken;
    }
  } catch (e) {
    void reader.cancel().catch(() => {});
    throw e;
  } finally {
    deadline.settle(w);
  }
}

/** A chunked body, whole. */
async function collectWithin(body: ReadableStream<Uint8Array>, deadline: BodyDeadline, max: number): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  await streamWithin(body, deadline, max, (chunk) => void chunks.push(chunk));
  return chunks.length === 1 ? (chunks[0] as Uint8Array) : Buffer.concat(chunks);
}

const utf8 = new TextDecoder();
const encoder = new TextEncoder();
const nativeText = Request.prototype.text;
const nativeBytes = Request.prototype.bytes;

/** How a request's body is to be read: set on it when it arrives. */
type Reading = { chunked: boolean; max: number; deadline: BodyDeadline; body?: Promise<string | Uint8Array> };
const READING = Symbol("body-deadline reading");
type Guarded = Request & { [READING]: Reading };

/** The body, read once through the deadline: as text when the first reader wants text (the common case and the cheapest). */
function read(request: Guarded, wanted: "text" | "bytes"): Promise<string | Uint8Array> {
  const r = request[READING];
  r.body ??= r.chunked
    ? collectWithin(request.body as ReadableStream<Uint8Array>, r.deadline, r.max)
    : within<string | Uint8Array>(wanted === "text" ? nativeText.call(request) : nativeBytes.call(request), r.deadline);
  return r.body;
}

const asText = (b: string | Uint8Array) => (typeof b === "string" ? b : utf8.decode(b));
// A copy each time (a Buffer's slice would be a view): the body read once is shared by every reader, and a reader may write into its bytes.
const asBytes = (b: string | Uint8Array) => (typeof b === "string" ? encoder.encode(b) : new Uint8Array(b));

/**
 * The body handed to `take` chunk by chunk as it arrives, none of it kept here, within the same
 * deadline and route size as every other reader (408, 413): for a route that must not hold a
 * large body whole before it knows what to do with it (the docs webhook hashes it as it comes).
 */
export function streamBody(request: Request, take: (chunk: Uint8Array) => void | Promise<void>): Promise<void> {
  if (!request.body) return Promise.resolve();
  const r = (request as Partial<Guarded>)[READING];
  // A request that did not come through the app (no reading set on it) still gets the default deadline.
  return streamWithin(request.body, r?.deadline ?? createBodyDeadline(), r?.max ?? Number.POSITIVE_INFINITY, take);
}

/**
 * A request whose every body reader (the route's parser, a handler) reads through the deadline,
 * once. Its prototype replaces the request's own: defining six closures on every request cost
 * more than the rest of a small POST's body handling.
 */
class GuardedRequest extends Request {
  override text(): Promise<string> {
    return read(this as unknown as Guarded, "text").then(asText);
  }
  override async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }
  override bytes(): Promise<Uint8Array<ArrayBuffer>> {
    return read(this as unknown as Guarded, "bytes").then(asBytes) as Promise<Uint8Array<ArrayBuffer>>;
  }
  override async arrayBuffer(): Promise<ArrayBuffer> {
    return (await this.copy()).arrayBuffer();
  }
  override async blob(): Promise<Blob> {
    return (await this.copy()).blob();
  }
  override async formData(): Promise<FormData> {
    return (await this.copy()).formData();
  }
  /** The body as a Response of the same type, for the readers a Response can do (form data, blobs). */
  private async copy(): Promise<Response> {
    return new Response(await this.bytes(), { headers: { "content-type": this.headers.get("content-type") ?? "" } });
  }
}

/**
 * Slow request bodies end with a 408 (Slowloris' slow POST): the idle timeout resets on every
 * byte, so a body trickling in a byte at a time would hold its connection for days. Every body is
 * read with a deadline, and within its route's size (`maxFor`; the server's own limit is the
 * largest of them): past it, 413.
 */
export function bodyDeadline(maxFor: (path: string) => number, deadline: BodyDeadline) {
  return new Elysia({ name: "body-deadline" }).onRequest((c) => {
    const { request } = c;
    if (!request.body) return;
    // Elysia puts the path on the context before this hook (its types say so only later on).
    const max = maxFor((c as unknown as { path: string }).path);
    const declared = request.headers.get("content-length");
    if (Number(declared ?? 0) > max) throw payloadTooLarge(max);
    (request as Guarded)[READING] = { chunked: declared === null, max, deadline };
    Object.setPrototypeOf(request, GuardedRequest.prototype);
  });
}
