import { Elysia } from "elysia";
import type { AppContext } from "../context/context.ts";
import { Liveness, Readiness } from "../contract/api/health.ts";
import { metricsRoutes } from "./metrics.routes.ts";
import { checkReadiness } from "./readiness.ts";

/**
 * What load balancers, orchestrators and Prometheus ask: liveness (the process answers),
 * readiness (the database reads and can be written; 503 with the reason when not, never a 500)
 * and the metrics.
 */
export function healthRoutes(ctx: AppContext) {
  return new Elysia({ name: "health" })
    .get(
      "/healthz",
      ({ set }) => {
        set.headers["cache-control"] = "no-store";
        return { ok: true as const, version: ctx.version };
      },
      { response: Liveness },
    )
    .get(
      "/readyz",
      async ({ set }) => {
        set.headers["cache-control"] = "no-store";
        const readiness = await checkReadiness(ctx.db);
        if (!readiness.ok) set.status = 503;
        return { ...readiness, version: ctx.version };
      },
      { response: { 200: Readiness, 503: Readiness } },
    )
    .use(metricsRoutes(ctx));
}
