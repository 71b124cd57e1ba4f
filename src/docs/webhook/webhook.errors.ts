import { AppError } from "../../shared/errors.ts";

// Spec 3 section 7, the push webhook's refusals (its answers are in webhook.service.ts).

/** `early`: answered before the body was read, so the connection is closed rather than drained. */
export const badSignature = (detail: string, early = false) =>
  new AppError("bad_signature", 401, "bad signature", detail, early ? { headers: { connection: "close" } } : undefined);

/** Too many large bodies at once is the sender's to slow down, not a fault of the server: 429, never a 5xx. */
export const largeBodiesBusy = (max: number) =>
  new AppError("server_busy", 429, "Too many requests", `${max} large webhook bodies are being received`, {
    headers: { "retry-after": "10", connection: "close" },
  });

/** An address past its unsigned deliveries this minute (no DOCS_WEBHOOK_SECRET set). */
export const tooManyUnsigned = (retryAfterSeconds: number) =>
  new AppError("too_many_requests", 429, "Too many requests", "unsigned webhook deliveries from this address", {
    headers: { "retry-after": String(retryAfterSeconds), connection: "close" },
  });
