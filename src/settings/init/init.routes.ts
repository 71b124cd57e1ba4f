import type { AppContext } from "../../context/context.ts";
import { Elysia } from "elysia";
import { Ok } from "../../contract/api/common.ts";
import { Branding, ConfigAnswer, InitStatus } from "../../contract/api/init.ts";
import { AppConfigPatchSchema, SetupBodySchema } from "./init.schemas.ts";
import { getAppConfig, getBranding, isConfigured, lockedFields, mayChangeConfig, runSetup, updateAppConfig } from "./init.service.ts";

/** Spec 3 section 4.1. Locked fields travel in a header so the JSON stays exactly the spec's. */
export function initRoutes(ctx: AppContext) {
  const withLocks = (set: { headers: Record<string, string | number> }) => {
    const locked = lockedFields(ctx);
    if (locked.length > 0) set.headers["cairn-locked-fields"] = locked.join(",");
  };
  return new Elysia({ name: "init" })
    .get("/api/init/status", async () => ({ configured: await isConfigured(ctx) }), { response: InitStatus })
    .get("/api/init/branding", () => getBranding(ctx), { response: Branding })
    .get(
      "/api/init/config",
      async ({ request, set }) => {
        withLocks(set);
        // The JSON stays exactly the spec's; whether this caller may change it travels beside it.
        set.headers["cairn-config-writable"] = String(await mayChangeConfig(ctx, request));
        return { config: await getAppConfig(ctx) };
      },
      { response: ConfigAnswer },
    )
    .put(
      "/api/init/config",
      async ({ body, request, set }) => {
        const config = await updateAppConfig(ctx, request, body);
        withLocks(set);
        return { config };
      },
      { parse: "json", body: AppConfigPatchSchema, response: ConfigAnswer },
    )
    .post(
      "/api/init/setup",
      async ({ body, headers }) => {
        await runSetup(ctx, headers["x-setup-token"] ?? null, body?.config);
        return { ok: true as const };
      },
      { body: SetupBodySchema, response: Ok },
    );
}
