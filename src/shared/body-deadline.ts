import { Elysia } from "elysia";
import { AppError, requestTimeout } from "./errors.ts";

const payloadTooLarge = (max: number) => new AppError(413, "Payload too large", `the body is larger than ${max} bytes`, { headers: { connection: "close" } });

/** A request body must have fully arrived this long after it is first read (the route parses it at once). */
const BODY_DEADLINE_MS = 20_000;

class BodyTimeout extends Error {}
class BodyTooLarge extends Error {}

/** The whole body, or BodyTimeout once `ms` passed (BodyTooLarge past `max` bytes): the stream is then cancelled, freeing the connection. */
async function streamWithin(body: ReadableStream<Uint8Array>, ms: number, max: number): Promise<Uint8Array> {
  const reader = body.getReader();
  let size = 0;
  let late = false;
  const timer = setTimeout(() => {
    late = true;
    void reader.cancel().catch(() => {});
  }, ms);
  const chunks: Uint8Array[] = [];
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (late) throw new BodyTimeout();
      if (done) break;
      size += value.byteLength;
      if (size > max) {
        void reader.cancel().catch(() => {});
        throw new BodyTooLarge();
      }
      chunks.push(value);
    }
  } finally {
    clearTimeout(timer);
  }
  return chunks.length === 1 ? (chunks[0] as Uint8Array) : Buffer.concat(chunks);
}

/** The read, or BodyTimeout once `ms` passed. The 408 closes the connection, which ends a read still pending. */
async function within<T>(read: Promise<T>, ms: number): Promise<T> {
  read.catch(() => {});
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new BodyTimeout()), ms);
  });
  try {
    return await Promise.race([read, late]);
  } finally {
    clearTimeout(timer);
  }
}

const utf8 = new TextDecoder();
const encoder = new TextEncoder();

/**
 * Makes every reader of the request's body (the route's parser, a handler) read it through the
 * deadline, once: a declared length (already held to `max`) is read whole by the runtime (as
 * text when the first reader wants text, the common case and the cheapest), a chunked body
 * counted against `max` as it streams in. The readers are replaced on the request itself: reading ahead into a copy of the
 * request cost more than the rest of a small POST's body handling.
 */
function readWithDeadline(request: Request, chunked: boolean, max: number, ms: number): void {
  const stream = request.body as ReadableStream<Uint8Array>;
  const native = { text: request.text.bind(request), bytes: request.bytes.bind(request) };
  let body: Promise<string | Uint8Array> | undefined;
  const read = (wanted: "text" | "bytes") => {
    body ??= (chunked ? streamWithin(stream, ms, max) : within<string | Uint8Array>(native[wanted](), ms)).catch((e) => {
      if (e instanceof BodyTimeout) throw requestTimeout(`the body did not arrive within ${ms} ms`);
      if (e instanceof BodyTooLarge) throw payloadTooLarge(max);
      throw e;
    });
    return body;
  };
  const text = async () => {
    const b = await read("text");
    return typeof b === "string" ? b : utf8.decode(b);
  };
  const bytes = async () => {
    const b = await read("bytes");
    return typeof b === "string" ? encoder.encode(b) : b;
  };
  const type = request.headers.get("content-type") ?? "";
  const copy = async () => new Response((await bytes()) as Uint8Array<ArrayBuffer>, { headers: { "content-type": type } });
  Object.defineProperties(request, {
    text: { value: text },
    json: { value: async () => JSON.parse(await text()) },
    bytes: { value: async () => (await copy()).bytes() },
    arrayBuffer: { value: async () => (await copy()).arrayBuffer() },
    blob: { value: async () => (await copy()).blob() },
    formData: { value: async () => (await copy()).formData() },
  });
}

/**
 * Slow request bodies end with a 408 (Slowloris' slow POST): the idle timeout resets on every
 * byte, so a body trickling in a byte at a time would hold its connection for days. Every body is
 * read with a deadline, and within its route's size (`maxFor`; the server's own limit is the
 * largest of them): past it, 413.
 */
export function bodyDeadline(maxFor: (path: string) => number, ms = BODY_DEADLINE_MS) {
  return new Elysia({ name: "body-deadline" }).onRequest(({ request }) => {
    if (!request.body) return;
    const max = maxFor(new URL(request.url).pathname);
    const declared = request.headers.get("content-length");
    if (Number(declared ?? 0) > max) throw payloadTooLarge(max);
    readWithDeadline(request, declared === null, max, ms);
  });
}
