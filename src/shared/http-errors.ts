import { Elysia } from "elysia";
import { AppError } from "./errors.ts";
import type { Logger } from "./log.ts";

/**
 * The one mapper from thrown errors to the `{error}` JSON of the spec. Malformed JSON and
 * schema failures are the endpoint's 400 `Invalid request`; unknown API routes a JSON 404;
 * anything unexpected a logged 500 that leaks nothing (and a test reaching it is a bug).
 */
export function httpErrors(log: Logger) {
  return new Elysia({ name: "http-errors" })
    .error({ AppError })
    .onError({ as: "global" }, ({ code, error, set, request }) => {
      set.headers["cache-control"] = "no-store";
      switch (code) {
        case "AppError":
          set.status = error.status;
          return { error: error.error };
        case "PARSE":
        case "VALIDATION":
        case "INVALID_COOKIE_SIGNATURE":
          set.status = 400;
          return { error: "Invalid request" };
        case "NOT_FOUND":
          set.status = 404;
          return { error: "Not found" };
        default:
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
