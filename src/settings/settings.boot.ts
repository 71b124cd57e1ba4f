import type { AppContext } from "../context/context.ts";
import { getBranding } from "./init/init.service.ts";

/** What the settings product adds at boot: the site's branding, for the identity provider's labels. */
export function bootSettings(ctx: AppContext): void {
  ctx.siteBranding = () => getBranding(ctx);
}
