import { Elysia } from "elysia";
import type { Logger } from "./log.ts";

const started = new WeakMap<Request, { id: string; at: number }>();

/** The path with its query keys but never their values (codes and tokens travel in queries). */
export function redactedPath(url: string): string {
  const u = new URL(url);
  const keys = [...new Set(u.searchParams.keys())];
  return keys.length === 0 ? u.pathname : `${u.pathname}?${keys.map((k) => `${encodeURIComponent(k)}=`).join("&")}`;
}

/** A request id on every response, and one JSON log line per request once it is answered. */
export function requestLog(log: Logger) {
  return new Elysia({ name: "request-log" })
    .onRequest(({ request, set }) => {
      const id = crypto.randomUUID();
      started.set(request, { id, at: performance.now() });
      set.headers["x-request-id"] = id;
    })
    .onAfterResponse({ as: "global" }, ({ request, set, response }) => {
      const start = started.get(request);
      log.info("request", {
        id: start?.id,
        method: request.method,
        path: redactedPath(request.url),
        // A handler that returns a Response sets its status there, not on `set`.
        status: response instanceof Response ? response.status : typeof set.status === "number" ? set.status : 200,
        ms: start ? Math.round((performance.now() - start.at) * 100) / 100 : undefined,
      });
    });
}
