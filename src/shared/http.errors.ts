import type { ErrorStyle } from "./error-style.ts";
import { AppError, describedError, invalidRequest, notFound } from "./errors.ts";

// The errors the HTTP core makes itself, worded in the style of the router that owns the path.

/** A body that is not JSON, fails its schema, or nests too deep; a cookie whose signature fails. */
export function malformedRequest(style: ErrorStyle, description: string): AppError {
  if (style === "spec") return invalidRequest(description);
  // RFC 7591 section 3.2.2: registration answers malformed metadata with its own code.
  return describedError(400, style === "rfc7591" ? "invalid_client_metadata" : "invalid_request", description);
}

/** No route has this path (or not for this method). */
export const noSuchRoute = (style: ErrorStyle): AppError =>
  style === "spec" ? notFound("no such route") : describedError(404, "not_found", "No such endpoint.");

const REMOVED = "Something this request refers to was removed meanwhile.";
/** A row this request points at went away while it ran: the database's foreign key refused the write. */
export const removedMeanwhile = (style: ErrorStyle): AppError =>
  style === "spec" ? new AppError("conflict", 409, "Conflict", "foreign key", { description: REMOVED }) : describedError(409, "invalid_request", REMOVED);

/**
 * The batch holding this request's writes failed to commit: nothing it did is acknowledged. Thrown
 * before anyone asked the owning router, so it carries the RFC wording too.
 */
export const notSaved = (detail: string) =>
  new AppError("service_unavailable", 503, "Service unavailable", detail, {
    headers: { "retry-after": "1" },
    rfc6749: { error: "temporarily_unavailable", description: "The change could not be saved; try again." },
  });

/**
 * The database did not answer (PostgreSQL restarting, the network between): nothing was done,
 * and the same request may succeed in a moment (issue 46). Never a 5xx that looks like a fault.
 */
export const databaseUnavailable = (detail: string) =>
  new AppError("service_unavailable", 503, "Service unavailable", detail, {
    headers: { "retry-after": "2" },
    rfc6749: { error: "temporarily_unavailable", description: "The database is unavailable for a moment; try again." },
  });

/** Anything unexpected: logged, and nothing of it told. */
export const internalError = () => new AppError("internal_server_error", 500, "Internal server error");
