import { Elysia } from "elysia";
import type { Logger } from "./log.ts";

const started = new WeakMap<Request, { id: string; at: number }>();

/** Paths whose segment is a secret: a share link's token opens its set to whoever reads the log. */
const SECRET_SEGMENT = /^\/(api\/shared|s)\/[^/]+/;

/** The path with its query keys but never their values (codes and tokens travel in queries), and no token segments. */
export function redactedPath(url: string): string {
  const u = new URL(url);
  const path = u.pathname.replace(SECRET_SEGMENT, (_, prefix: string) => `/${prefix}/:token`);
  const keys = [...new Set(u.searchParams.keys())];
  return keys.length === 0 ? path : `${path}?${keys.map((k) => `${encodeURIComponent(k)}=`).join("&")}`;
}

/** Told of every answered request: its route pattern (never the raw path), status and duration. */
export type RequestObserver = (method: string, route: string, status: number, seconds: number) => void;

/**
 * A request id on every response, and one JSON log line per request once it is answered, which
 * `observe` (the metrics) is told of too. Warns once when requests come through a proxy that is
 * not trusted: every client then has the proxy's address, so per-address limits would pause
 * everyone together.
 */
export function requestLog(log: Logger, trustProxy = false, observe?: RequestObserver) {
  let warned = trustProxy;
  return new Elysia({ name: "request-log" })
    .onRequest(({ request, set }) => {
      const id = crypto.randomUUID();
      started.set(request, { id, at: performance.now() });
      set.headers["x-request-id"] = id;
      if (!warned && (request.headers.has("x-forwarded-for") || request.headers.has("forwarded"))) {
        warned = true;
        log.warn(
          "requests arrive through a proxy (X-Forwarded-For) but CAIRN_TRUST_PROXY is false: every client counts as the proxy's address for sign-in limits; set CAIRN_TRUST_PROXY=true behind a reverse proxy",
        );
      }
    })
    .onAfterResponse({ as: "global" }, ({ request, set, response, route }) => {
      const start = started.get(request);
      // A handler that returns a Response sets its status there, not on `set`.
      const status = response instanceof Response ? response.status : typeof set.status === "number" ? set.status : 200;
      const ms = start ? performance.now() - start.at : undefined;
      log.info("request", {
        id: start?.id,
        method: request.method,
        path: redactedPath(request.url),
        status,
        ms: ms === undefined ? undefined : Math.round(ms * 100) / 100,
      });
      // A request refused before routing (a body too large, say) has no route.
      if (observe && ms !== undefined) observe(request.method, route || "unmatched", status, ms / 1000);
    });
}
