import { Elysia } from "elysia";
import type { AppContext } from "../context/context.ts";
import { assertMetricsAccess } from "../metrics/metrics.access.ts";
import { METRICS_CONTENT_TYPE, metricsText } from "./metrics.scrape.ts";

/** GET /metrics: Prometheus' text format, for the whole instance (README "Monitoring"). */
export function metricsRoutes(ctx: AppContext) {
  return new Elysia({ name: "metrics" }).get("/metrics", async ({ request, server, set }) => {
    assertMetricsAccess(ctx.config, request, server);
    set.headers["content-type"] = METRICS_CONTENT_TYPE;
    set.headers["cache-control"] = "no-store";
    return metricsText(ctx);
  });
}
