import type { AppContext } from "../../context.ts";
import { getAppConfig } from "../../settings/init/init.service.ts";
import { endWsSessions, wsSessionsOf } from "./signin.service.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "config" | "secrets" | "configAccess" | "accountEvents">;

/** True when the workspace signs in through this very instance (its IdP's users are ours). */
function idpIsThisInstance(ctx: Ctx): boolean {
  try {
    return new URL(getAppConfig(ctx).idp_base_url).origin === new URL(ctx.config.issuer).origin;
  } catch {
    return false;
  }
}

/**
 * A workspace session is a relying party's session on top of an IdP session. When the IdP is this
 * instance its sign-outs and revocations reach the workspace at once, in-process (what back-channel
 * logout does between two hosts): a session made from an ended IdP session ends, and an account
 * whose credentials were revoked loses every workspace session. Another IdP's changes arrive
 * through the periodic confirmation (session-check.ts).
 */
export function endWorkspaceSessionsOnAccountEvents(ctx: Ctx): void {
  ctx.accountEvents.on((event) => {
    if (event.type === "password_changed" || !idpIsThisInstance(ctx)) return;
    endWsSessions(ctx, wsSessionsOf(event.type === "sessions_ended" ? { idpSids: event.sids } : { userId: event.userId }));
  });
}
