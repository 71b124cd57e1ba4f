import { eq } from "drizzle-orm";
import type { AppContext } from "../../context/context.ts";
import type { MailStatus } from "../../contract/api/workspace-mail.ts";
import { mailEnabled } from "../../mail/outbox.service.ts";
import { getAppConfig } from "../../settings/init/init.service.ts";
import type { SessionCaller } from "../permissions/actor.ts";
import { fetchMyAddress, type IdpAddress } from "../session/idp-team-api.ts";
import { idpAccessToken } from "../session/idp-tokens.ts";
import { wsSessions } from "../storage/session.table.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "config" | "secrets" | "configAccess" | "outbound" | "log" | "workspace"> & Parameters<typeof mailEnabled>[0];

/** The address the IdP vouches for now, with the session's token (renewed once if refused); null when it cannot say. */
async function askAddress(ctx: Ctx, sessionId: string): Promise<IdpAddress | null> {
  const base = (await getAppConfig(ctx)).idp_base_url;
  const token = base ? await idpAccessToken(ctx, sessionId) : null;
  if (!token) return null;
  let answer = await fetchMyAddress(ctx, base, token);
  if (answer.kind === "unauthorized") {
    const renewed = await idpAccessToken(ctx, sessionId, { renew: true });
    if (renewed) answer = await fetchMyAddress(ctx, base, renewed);
  }
  return answer.kind === "ok" ? answer.value : null;
}

/**
 * `GET /api/workspace/mail`: whether this instance can send mail, and the address notices go to.
 * Asked of the IdP on the spot (the settings page opens after someone verified or changed their
 * address) and kept with the person's sessions, where notices read it; the last known answer
 * stands when the IdP cannot be asked.
 */
export async function mailStatus(ctx: Ctx, caller: SessionCaller): Promise<MailStatus> {
  let { email, emailVerified } = caller.session;
  try {
    const now = await askAddress(ctx, caller.session.id);
    if (now && (now.email !== email || now.emailVerified !== emailVerified)) {
      ({ email, emailVerified } = now);
      await ctx.db.update(wsSessions).set(now).where(eq(wsSessions.userId, caller.userId)).run();
    }
  } catch (e) {
    ctx.log.warn("workspace mail: the identity provider could not say the address; the last one stands", { error: (e as Error).message });
  }
  return { mail: mailEnabled(ctx), email, emailVerified };
}
