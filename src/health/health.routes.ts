import { Elysia } from "elysia";

/** Liveness for load balancers and the smoke test. */
export function healthRoutes(version: string) {
  return new Elysia({ name: "health" }).get("/healthz", ({ set }) => {
    set.headers["cache-control"] = "no-store";
    return { ok: true, version };
  });
}
