/**
 * An error whose `error` text and status are the public answer, exactly as the spec words it.
 * Rendered as `{"error": error}` (plus `error_description` when given) by the one mapper in
 * http-errors.ts.
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    /** Private detail for the log and for tests, never sent. */
    readonly detail?: string,
    readonly extra: { description?: string; headers?: Record<string, string>; fields?: Record<string, unknown> } = {},
  ) {
    super(detail ? `${error}: ${detail}` : error);
    this.name = "AppError";
  }
}

/** The identity and OAuth APIs answer errors in the RFC 6749 shape; the others in the spec's `{error}`. */
export const rfcStyle = (path: string) => path.startsWith("/api/auth/") || path.startsWith("/api/oauth/");

export const invalidRequest = (detail?: string) => new AppError(400, "Invalid request", detail);
export const unauthorized = (detail?: string) => new AppError(401, "Unauthorized", detail);
export const forbidden = (detail?: string) => new AppError(403, "Forbidden", detail);
export const notFound = (detail?: string) => new AppError(404, "Not found", detail);
/** The body did not arrive in time; the connection is closed so a slow sender cannot hold it. */
export const requestTimeout = (detail: string) => new AppError(408, "Request timeout", detail, { headers: { connection: "close" } });

/**
 * An error of the identity and OAuth APIs: an RFC 6749/6750-style `code` with a human
 * description, rendered `{"error": code, "error_description": description}`.
 */
export const describedError = (status: number, code: string, description: string, headers?: Record<string, string>, fields?: Record<string, unknown>) =>
  new AppError(status, code, description, { description, headers, fields });
