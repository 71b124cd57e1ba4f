import { eq } from "drizzle-orm";
import type { AppContext } from "../../context/context.ts";
import { memberCache } from "../storage/todos.table.ts";
import { followIdpTeams } from "./follow-idp-teams.service.ts";
import { forgetDeletedMember } from "./forget-member.service.ts";
import { endWsSessions, wsSessionsOf } from "./session.service.ts";

/**
 * A workspace session is a relying party's session on top of an IdP session. The IdP's sign-outs
 * and revocations on this instance reach the workspace at once, in-process (what back-channel
 * logout does between two hosts): a session made from an ended IdP session ends, an account whose
 * credentials were revoked loses every workspace session, a disabled one leaves the member lists
 * (the next sync brings it back once enabled), and a deleted one is forgotten
 * (forget-member.service.ts); a change of the person's teams or roles applies at once
 * (follow-idp-teams.service.ts). Another IdP's changes arrive through the once-a-minute confirmation
 * (session-check.ts). Ids are this instance's own, so a workspace signed in through another IdP
 * finds nothing to end here; no check of the app config is needed, which keeps this working from
 * the command line too (`cairn admin reset-password`).
 */
export function endWorkspaceSessionsOnAccountEvents(ctx: Pick<AppContext, "db" | "clock" | "accountEvents" | "workspace">): void {
  ctx.accountEvents.on(async (event) => {
    if (event.type === "sessions_ended") await endWsSessions(ctx, wsSessionsOf({ idpSids: event.sids }));
    if (event.type === "teams_changed") await followIdpTeams(ctx, event.userId, event.teams);
    if (event.type !== "credentials_revoked") return;
    await endWsSessions(ctx, wsSessionsOf({ userId: event.userId }));
    if (event.reason === "disabled") await ctx.db.delete(memberCache).where(eq(memberCache.userId, event.userId)).run();
    if (event.reason === "deleted") await forgetDeletedMember(ctx, event.userId);
  });
}
