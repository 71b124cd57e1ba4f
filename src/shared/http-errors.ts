import { Elysia } from "elysia";
import { AppError, rfcStyle } from "./errors.ts";
import type { Logger } from "./log.ts";
import { redactedPath } from "./request-log.ts";

/** Names the first failing field, as "field: problem", without echoing the value. */
function validationMessage(error: unknown): string {
  const first = (error as { all?: { path?: string; message?: string }[] }).all?.[0];
  const field = first?.path?.replace(/^\//, "").replaceAll("/", ".");
  return field ? `${field}: ${first?.message ?? "invalid"}` : "The request is not valid.";
}

function badRequest(path: string, description: string) {
  // RFC 7591 section 3.2.2: registration answers malformed metadata with its own code.
  if (path.startsWith("/api/oauth/register")) return { error: "invalid_client_metadata", error_description: description };
  return rfcStyle(path) ? { error: "invalid_request", error_description: description } : { error: "Invalid request" };
}

/**
 * The one mapper from thrown errors to JSON. An AppError answers its public text and logs its
 * private detail; malformed JSON and schema failures are a 400 in the endpoint's own format;
 * unknown API routes a JSON 404; anything unexpected a logged 500 that leaks nothing (and a test
 * reaching it is a bug).
 */
export function httpErrors(log: Logger) {
  return new Elysia({ name: "http-errors" }).error({ AppError }).onError({ as: "global" }, ({ code, error, set, request, path }) => {
    set.headers["cache-control"] = "no-store";
    const refused = (error: AppError) => {
      // The private detail says why, for the operator and for tests; the answer never carries it.
      log.info("refused", {
        id: set.headers["x-request-id"],
        method: request.method,
        path: redactedPath(request.url),
        status: error.status,
        error: error.error,
        detail: error.detail,
      });
      set.status = error.status;
      Object.assign(set.headers, error.extra.headers);
      return error.extra.description === undefined
        ? { error: error.error, ...error.extra.fields }
        : { error: error.error, error_description: error.extra.description, ...error.extra.fields };
    };
    switch (code) {
      case "AppError":
        return refused(error);
      case "PARSE":
        // Reading the body failed (too slow, too large: body-deadline), rather than parsing it.
        if (error.cause instanceof AppError) return refused(error.cause);
        set.status = 400;
        return badRequest(path, "The body is not valid JSON.");
      case "VALIDATION":
        set.status = 400;
        return badRequest(path, validationMessage(error));
      case "INVALID_COOKIE_SIGNATURE":
        set.status = 400;
        return badRequest(path, "Invalid cookie.");
      case "NOT_FOUND":
        set.status = 404;
        return rfcStyle(path) ? { error: "not_found", error_description: "No such endpoint." } : { error: "Not found" };
      default:
        // A row this request points at went away while it ran (its account deleted, say): the
        // database refused the write, nothing changed, and the caller may look again.
        if ((error as { code?: unknown }).code === "SQLITE_CONSTRAINT_FOREIGNKEY") {
          log.info("refused", { method: request.method, path: redactedPath(request.url), status: 409, error: "foreign key" });
          set.status = 409;
          const description = "Something this request refers to was removed meanwhile.";
          return rfcStyle(path) ? { error: "invalid_request", error_description: description } : { error: "Conflict", error_description: description };
        }
        // A body nested deep enough to exhaust the stack while being checked is bad input, not a fault.
        if (error instanceof RangeError) {
          set.status = 400;
          return badRequest(path, "The body is nested too deeply.");
        }
        log.error("unhandled error", {
          method: request.method,
          path: new URL(request.url).pathname,
          error: error instanceof Error ? (error.stack ?? error.message) : String(error),
        });
        set.status = 500;
        return { error: "Internal server error" };
    }
  });
}
