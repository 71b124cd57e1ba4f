import type { AppContext } from "../../context/context.ts";
import { revokeUserGrants } from "./tokens.service.ts";

/**
 * A changed password or an account whose credentials were revoked ends every grant the user gave
 * an app: refresh tokens, and the access tokens hanging off them, stop at once.
 */
export function revokeGrantsOnAccountEvents(ctx: Pick<AppContext, "db" | "clock" | "accountEvents" | "oauth">): void {
  ctx.accountEvents.on((event) => {
    if (event.type === "password_changed" || event.type === "credentials_revoked") revokeUserGrants(ctx, event.userId);
  });
}
