import { Elysia } from "elysia";
import { type ErrorStyle, type Route, routeStyles } from "./error-style.ts";
import { AppError } from "./errors.ts";
import { databaseUnavailable, internalError, malformedRequest, noSuchRoute, removedMeanwhile } from "./http.errors.ts";
import type { Logger } from "./log.ts";
import { EXPECTED_REFUSAL, redactedPath } from "./request-log.ts";

/** Names the first failing field, as "field: problem", without echoing the value. */
function validationMessage(error: unknown): string {
  const first = (error as { all?: { path?: string; message?: string }[] }).all?.[0];
  const field = first?.path?.replace(/^\//, "").replaceAll("/", ".");
  return field ? `${field}: ${first?.message ?? "invalid"}` : "The request is not valid.";
}

/**
 * The answer's body. The spec's text gets its machine `code` beside it; an RFC 6749-style error
 * already is its code. An error carrying an RFC wording uses it where the router answers in that style.
 */
export function errorBody(error: AppError, style: ErrorStyle): Record<string, unknown> {
  const { description, fields, rfc6749 } = error.extra;
  if (rfc6749 && style !== "spec") return { error: rfc6749.error, error_description: rfc6749.description, ...fields };
  return {
    error: error.error,
    ...(error.code !== error.error && { code: error.code }),
    ...(description !== undefined && { error_description: description }),
    ...fields,
  };
}

/**
 * What a database refusal says, read by shape (this folder sits below db/): SQLite's extended code
 * or PostgreSQL's SQLSTATE (`errno` on Bun's PostgresError).
 */
const isForeignKeyViolation = (error: unknown) => {
  const e = error as { code?: unknown; errno?: unknown };
  return e.code === "SQLITE_CONSTRAINT_FOREIGNKEY" || (e.errno === "23503" && (error as Error).name === "PostgresError");
};

/** PostgreSQL's 22021: text with a byte its UTF-8 cannot hold, in practice NUL (SQLite stores it; PostgreSQL's text cannot). */
const isUnstorableText = (error: unknown) => (error as { errno?: unknown }).errno === "22021" && (error as Error).name === "PostgresError";

/** The error or a cause of it saying the database is out of reach (db/pg/errors.ts DatabaseUnavailableError), else null. */
function unavailableCause(error: unknown): Error | null {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) if (e.name === "DatabaseUnavailableError") return e;
  return null;
}

/**
 * The one mapper from thrown errors to JSON. An AppError answers its public text and logs its
 * private detail; malformed JSON and schema failures are a 400 in the endpoint's own format;
 * unknown API routes a JSON 404; anything unexpected a logged 500 that leaks nothing (and a test
 * reaching it is a bug). The format is the owning router's (error-style.ts), looked up in `routes`:
 * the app's own route table.
 */
export function httpErrors(log: Logger, routes: () => readonly Route[] = () => []) {
  const styleOf = routeStyles(routes);
  return new Elysia({ name: "http-errors" }).onError({ as: "global" }, (c) => {
    const { code, error, set, request, path } = c;
    const style = styleOf((c as { route?: string }).route, path);
    set.headers["cache-control"] = "no-store";
    const answer = (error: AppError) => {
      set.status = error.status;
      Object.assign(set.headers, error.extra.headers);
      return errorBody(error, style);
    };
    const refused = (error: AppError) => {
      // A caller that presented no credential was asked for one: expected, so below info (issue 42).
      if (error.extra.expected) (c as { [EXPECTED_REFUSAL]?: boolean })[EXPECTED_REFUSAL] = true;
      // The private detail says why, for the operator and for tests; the answer never carries it.
      log[error.extra.expected ? "debug" : "info"]("refused", {
        id: set.headers["x-request-id"],
        method: request.method,
        path: redactedPath(request.url),
        status: error.status,
        error: error.error,
        detail: error.detail,
      });
      return answer(error);
    };
    // Elysia names an error by its `code` property, which an AppError uses for its own: asked first.
    if (error instanceof AppError) return refused(error);
    switch (code) {
      case "PARSE":
        // Reading the body failed (too slow, too large: body-deadline), rather than parsing it.
        if (error.cause instanceof AppError) return refused(error.cause);
        return answer(malformedRequest(style, "The body is not valid JSON."));
      case "VALIDATION":
        // An answer that breaks its route's response schema is the server's fault, not the caller's.
        if ((error as { type?: string }).type === "response") {
          log.error("answer does not match its schema", { method: request.method, path: new URL(request.url).pathname, error: validationMessage(error) });
          return answer(internalError());
        }
        return answer(malformedRequest(style, validationMessage(error)));
      case "INVALID_COOKIE_SIGNATURE":
        return answer(malformedRequest(style, "Invalid cookie."));
      case "NOT_FOUND":
        return answer(noSuchRoute(style));
      default:
        // A row this request points at went away while it ran (its account deleted, say): the
        // database refused the write, nothing changed, and the caller may look again.
        if (isForeignKeyViolation(error)) {
          log.info("refused", { method: request.method, path: redactedPath(request.url), status: 409, error: "foreign key" });
          return answer(removedMeanwhile(style));
        }
        if (isUnstorableText(error)) return answer(malformedRequest(style, "The request contains a NUL character."));
        {
          // The database blinked (issue 46): a clear 503 with Retry-After, not a fault.
          const unavailable = unavailableCause(error);
          if (unavailable) return refused(databaseUnavailable(unavailable.message));
        }
        // A body nested deep enough to exhaust the stack while being checked is bad input, not a fault.
        if (error instanceof RangeError) return answer(malformedRequest(style, "The body is nested too deeply."));
        log.error("unhandled error", {
          method: request.method,
          path: new URL(request.url).pathname,
          error: error instanceof Error ? (error.stack ?? error.message) : String(error),
        });
        return answer(internalError());
    }
  });
}
