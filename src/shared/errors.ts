/**
 * How a router that answers in RFC 6749's shape words an error whose spec text is for another
 * router (commit-before-answer's 503 is thrown before anyone knows who answers).
 */
export type RfcWording = { error: string; description: string };

/**
 * An error whose `error` text and status are the public answer, exactly as the spec words it, with
 * a stable machine `code` beside it. An RFC 6749-style error (describedError) is its own code.
 * Rendered by the one mapper in http-errors.ts as `{"error": error, "code": code}`, or
 * `{"error": code, "error_description": description}` in the RFC style.
 */
export class AppError extends Error {
  constructor(
    /** What clients branch on: snake_case, never reworded (the `error` text may be the spec's prose). */
    readonly code: string,
    readonly status: number,
    readonly error: string,
    /** Private detail for the log and for tests, never sent. */
    readonly detail?: string,
    readonly extra: {
      description?: string;
      headers?: Record<string, string>;
      fields?: Record<string, unknown>;
      rfc6749?: RfcWording;
      /** A refusal that says nothing went wrong (no credential was presented): logged at debug, not info. */
      expected?: boolean;
    } = {},
  ) {
    super(detail ? `${error}: ${detail}` : error);
    this.name = "AppError";
  }
}

/** The same refusal, marked as expected: a caller that presented no credential at all was asked to (issue 42). */
export const expectedRefusal = (e: AppError) => new AppError(e.code, e.status, e.error, e.detail, { ...e.extra, expected: true });

/** An RFC 6749-style error: its `error` is its code, `extra.description` the public text, `detail` private. */
export const rfcError = (code: string, status: number, detail: string, extra: AppError["extra"]) => new AppError(code, status, code, detail, extra);

/**
 * An error of the identity and OAuth APIs: an RFC 6749/6750-style `code` with a human
 * description, rendered `{"error": code, "error_description": description}`.
 */
export const describedError = (status: number, code: string, description: string, headers?: Record<string, string>, fields?: Record<string, unknown>) =>
  rfcError(code, status, description, { description, headers, fields });

// The HTTP core's own texts, shared by every API that answers in the spec's `{error}` shape.
export const invalidRequest = (detail?: string) => new AppError("invalid_request", 400, "Invalid request", detail);
export const unauthorized = (detail?: string, headers?: Record<string, string>) => new AppError("unauthorized", 401, "Unauthorized", detail, { headers });
export const forbidden = (detail?: string) => new AppError("forbidden", 403, "Forbidden", detail);
export const notFound = (detail?: string) => new AppError("not_found", 404, "Not found", detail);
/** The body did not arrive in time; the connection is closed so a slow sender cannot hold it. */
export const requestTimeout = (detail: string) => new AppError("request_timeout", 408, "Request timeout", detail, { headers: { connection: "close" } });
/** The body is larger than its route takes; the connection is closed rather than the rest drained. */
export const payloadTooLarge = (max: number) =>
  new AppError("payload_too_large", 413, "Payload too large", `the body is larger than ${max} bytes`, { headers: { connection: "close" } });
