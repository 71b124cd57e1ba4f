import type { AppContext } from "../context/context.ts";
import { createIdentityRuntime } from "./identity.context.ts";
import { registerIdentityPurges } from "./identity.purge.ts";
import { getSiteConfig } from "./site-config/site-config.ts";
import { patCredential } from "./pats/pat.credential.ts";
import { sessionCredentials } from "./sessions/session.credential.ts";

/** What identity adds at boot: clearing its leftovers, its credential kinds and the site's step-up policy. */
export function bootIdentity(ctx: AppContext): void {
  ctx.identity = createIdentityRuntime(ctx.db);
  registerIdentityPurges(ctx);
  for (const resolver of sessionCredentials(ctx)) ctx.access.credentials.register(resolver);
  ctx.access.credentials.register(patCredential(ctx));
  ctx.access.adminNeedsSecondFactor = async () => (await getSiteConfig(ctx)).admin_requires_mfa;
}
