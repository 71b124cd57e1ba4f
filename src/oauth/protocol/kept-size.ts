import { invalidRequest, requestTooLarge } from "./oauth.errors.ts";

/**
 * Most bytes of a request that leaves a row behind for later (a pushed request, a device request):
 * far above any real one, a client assertion with its certificate chain included, and far below
 * the 1 MiB any body may have. Refused with 413 in RFC 6749 JSON.
 */
export const MAX_START_REQUEST_BYTES = 32 * 1024;
/** Most bytes such a row keeps of what was asked (state, nonce, redirect_uri, resources and the rest, as stored). */
export const MAX_KEPT_BYTES = 8 * 1024;

export function assertStartRequestSize(form: URLSearchParams): void {
  const bytes = Buffer.byteLength(form.toString());
  if (bytes > MAX_START_REQUEST_BYTES) throw requestTooLarge(bytes, MAX_START_REQUEST_BYTES);
}

/** `kept` is what the row stores, serialized as stored. */
export function assertKeptSize(kept: string): void {
  const bytes = Buffer.byteLength(kept);
  if (bytes > MAX_KEPT_BYTES) throw invalidRequest(`the parameters to keep are too large (${bytes} bytes; at most ${MAX_KEPT_BYTES})`);
}
