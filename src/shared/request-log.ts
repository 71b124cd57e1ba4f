import { Elysia } from "elysia";
import { receivedRequest } from "./body-deadline.ts";
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

/**
 * A request id on every response, and one JSON log line per request once it is answered. Warns
 * once when requests come through a proxy that is not trusted: every client then has the proxy's
 * address, so per-address limits would pause everyone together.
 */
export function requestLog(log: Logger, trustProxy = false) {
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
    .onAfterResponse({ as: "global" }, ({ request, set, response }) => {
      const start = started.get(receivedRequest(request));
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
