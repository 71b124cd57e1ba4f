import { Elysia } from "elysia";
import type { Logger } from "./log.ts";
import { requestSampler } from "./request-sampler.ts";

/**
 * Set on the request's context when it arrives (`startedAt`), and by the error mapper when the
 * answer is an expected refusal (no credential presented): the context lives until the answer is logged.
 */
type Timed = { startedAt?: number; [EXPECTED_REFUSAL]?: boolean };

/**
 * Marks the request's answer as an expected refusal (its log line goes out at debug, not info),
 * set by a hook as `c[EXPECTED_REFUSAL] = true`. Never by handing the context to a function:
 * Elysia reads its hooks' source, and a context passed on makes every route of the app parse its
 * cookies, headers and query before anything else (issue 45: a fifth of forward auth's check).
 */
export const EXPECTED_REFUSAL = "expectedRefusal";

/** Paths whose segment is a secret: a share link's token opens its set to whoever reads the log. */
const SECRET_SEGMENT = /^\/(api\/shared|s)\/[^/]+/;

const redactSegment = (path: string) => path.replace(SECRET_SEGMENT, (_, prefix: string) => `/${prefix}/:token`);

/**
 * The path with its query keys but never their values (codes and tokens travel in queries), and
 * no token segments. `pathname`, when the caller has it, spares parsing a URL without a query.
 */
export function redactedPath(url: string, pathname?: string): string {
  if (pathname !== undefined && !url.includes("?")) return redactSegment(pathname);
  const u = new URL(url);
  const path = redactSegment(u.pathname);
  const keys = [...new Set(u.searchParams.keys())];
  return keys.length === 0 ? path : `${path}?${keys.map((k) => `${encodeURIComponent(k)}=`).join("&")}`;
}

/** Told of every answered request: its route pattern (never the raw path), status and duration. */
export type RequestObserver = (method: string, route: string, status: number, seconds: number) => void;

export type RequestLogOptions = {
  trustProxy?: boolean;
  /** Told of every answered request (the metrics). */
  observe?: RequestObserver;
  /** Lines a second for answers that are neither refusals nor slow (request-sampler); 0: every one. */
  perSecond?: number;
};

/**
 * A request id on every response, and a JSON log line once it is answered: for every refusal,
 * failure and slow answer, and for the rest up to `perSecond` a second, past which a line says
 * how many went unlogged. `observe` (the metrics) is told of every one. Warns once when requests
 * come through a proxy that is not trusted: every client then has the proxy's address, so
 * per-address limits would pause everyone together.
 */
export function requestLog(log: Logger, { trustProxy = false, observe, perSecond = 0 }: RequestLogOptions = {}) {
  let warned = trustProxy;
  const sampled = requestSampler(perSecond, (count) => log.info("requests not logged", { count, per_second: perSecond }));
  return new Elysia({ name: "request-log" })
    .onRequest((c) => {
      const { request, set } = c;
      (c as Timed).startedAt = performance.now();
      set.headers["x-request-id"] = crypto.randomUUID();
      if (!warned && (request.headers.has("x-forwarded-for") || request.headers.has("forwarded"))) {
        warned = true;
        log.warn(
          "requests arrive through a proxy (X-Forwarded-For) but CAIRN_TRUST_PROXY is false: every client counts as the proxy's address for sign-in limits; set CAIRN_TRUST_PROXY=true behind a reverse proxy",
        );
      }
    })
    .onAfterResponse({ as: "global" }, (c) => {
      const { request, set, response, route, path } = c;
      const { startedAt, [EXPECTED_REFUSAL]: expectedRefusal } = c as Timed;
      // A handler that returns a Response sets its status there, not on `set`.
      const status = response instanceof Response ? response.status : typeof set.status === "number" ? set.status : 200;
      const ms = startedAt === undefined ? undefined : performance.now() - startedAt;
      // An expected refusal is no fault to show an operator at info, nor one to take a sampled line's place.
      if (expectedRefusal || sampled(status, ms ?? 0))
        log[expectedRefusal ? "debug" : "info"]("request", {
          id: set.headers["x-request-id"],
          method: request.method,
          path: redactedPath(request.url, path),
          status,
          ms: ms === undefined ? undefined : Math.round(ms * 100) / 100,
        });
      // A request refused before routing (a body too large, say) has no route.
      if (observe && ms !== undefined) observe(request.method, route || "unmatched", status, ms / 1000);
    });
}
