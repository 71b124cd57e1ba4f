import type { AppContext } from "../../context/context.ts";
import { Elysia } from "elysia";
import { AppConfigPatchSchema, SetupBodySchema } from "./init.schemas.ts";
import { getAppConfig, getBranding, isConfigured, lockedFields, mayChangeConfig, runSetup, updateAppConfig } from "./init.service.ts";

/** Spec 3 section 4.1. Locked fields travel in a header so the JSON stays exactly the spec's. */
export function initRoutes(ctx: AppContext) {
  const withLocks = (set: { headers: Record<string, string | number> }) => {
    const locked = lockedFields(ctx);
    if (locked.length > 0) set.headers["cairn-locked-fields"] = locked.join(",");
  };
  return new Elysia({ name: "init" })
    .get("/api/init/status", () => ({ configured: isConfigured(ctx) }))
    .get("/api/init/branding", () => getBranding(ctx))
    .get("/api/init/config", async ({ request, set }) => {
      withLocks(set);
      // The JSON stays exactly the spec's; whether this caller may change it travels beside it.
      set.headers["cairn-config-writable"] = String(await mayChangeConfig(ctx, request));
      return { config: getAppConfig(ctx) };
    })
    .put(
      "/api/init/config",
      async ({ body, request, set }) => {
        const config = await updateAppConfig(ctx, request, body);
        withLocks(set);
        return { config };
      },
      { parse: "json", body: AppConfigPatchSchema },
    )
    .post(
      "/api/init/setup",
      ({ body, headers }) => {
        runSetup(ctx, headers["x-setup-token"] ?? null, body?.config);
        return { ok: true };
      },
      { body: SetupBodySchema },
    );
}
