import { Elysia } from "elysia";
import { AppError, requestTimeout } from "./errors.ts";

const payloadTooLarge = (max: number) => new AppError(413, "Payload too large", `the body is larger than ${max} bytes`, { headers: { connection: "close" } });

/** A request body must have fully arrived this long after the request began. */
const BODY_DEADLINE_MS = 20_000;

// Bodies are read here, then handed on as a new Request; the socket's address stays with the
// one the server received.
const received = new WeakMap<Request, Request>();

/** The Request the server received (for the socket's address) behind one this plugin replaced. */
export const receivedRequest = (request: Request): Request => received.get(request) ?? request;

class BodyTimeout extends Error {}
class BodyTooLarge extends Error {}

/** The whole body, or BodyTimeout once `ms` passed (BodyTooLarge past `max` bytes): the stream is then cancelled, freeing the connection. */
async function readWithin(body: ReadableStream<Uint8Array>, ms: number, max: number): Promise<Uint8Array> {
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

/**
 * Slow request bodies end with a 408 (Slowloris' slow POST): the idle timeout resets on every
 * byte, so a body trickling in a byte at a time would hold its connection for days. Each body is
 * read with a deadline before any route parses it, and within its route's size (`maxFor`; the
 * server's own limit is the largest of them): past it, 413.
 */
export function bodyDeadline(maxFor: (path: string) => number, ms = BODY_DEADLINE_MS) {
  return new Elysia({ name: "body-deadline" }).onRequest(async (c) => {
    const { request } = c;
    if (!request.body) return;
    const max = maxFor(new URL(request.url).pathname);
    if (Number(request.headers.get("content-length") ?? 0) > max) throw payloadTooLarge(max);
    let bytes: Uint8Array;
    try {
      bytes = await readWithin(request.body, ms, max);
    } catch (e) {
      if (e instanceof BodyTimeout) throw requestTimeout(`the body did not arrive within ${ms} ms`);
      if (e instanceof BodyTooLarge) throw payloadTooLarge(max);
      throw e;
    }
    const replaced = new Request(request, { body: bytes as Uint8Array<ArrayBuffer> });
    received.set(replaced, request);
    (c as { request: Request }).request = replaced;
  });
}
