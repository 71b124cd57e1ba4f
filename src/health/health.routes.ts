import { Elysia } from "elysia";
import type { AppContext } from "../context/context.ts";
import { metricsRoutes } from "./metrics.routes.ts";
import { checkReadiness } from "./readiness.ts";

/**
 * What load balancers, orchestrators and Prometheus ask: liveness (the process answers),
 * readiness (the database reads and can be written; 503 with the reason when not, never a 500)
 * and the metrics.
 */
export function healthRoutes(ctx: AppContext) {
  return new Elysia({ name: "health" })
    .get("/healthz", ({ set }) => {
      set.headers["cache-control"] = "no-store";
      return { ok: true, version: ctx.version };
    })
    .get("/readyz", ({ set }) => {
      set.headers["cache-control"] = "no-store";
      const readiness = checkReadiness(ctx.db);
      if (!readiness.ok) set.status = 503;
      return { ...readiness, version: ctx.version };
    })
    .use(metricsRoutes(ctx));
}
