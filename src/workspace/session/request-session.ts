import { type OriginRule, originRefusal } from "../../access/csrf.ts";
import { expectedRefusal, forbidden, unauthorized } from "../../shared/errors.ts";
import type { WsSessionRow } from "../storage/session.table.ts";
import { confirmedSession, freshSession } from "./session-check.ts";
import { findWsSession } from "./session.service.ts";
import { wsCookieOf } from "./ws-cookie.ts";

type Ctx = Parameters<typeof confirmedSession>[0];

/**
 * The workspace session behind a request, as the IdP sees it now (confirmed at least once a
 * minute, session-check.ts): 401 `Unauthorized` without a live one, 403 `Forbidden` when the
 * Origin breaks the rule (the session is a cookie). Every workspace entry point starts here;
 * `fresh` asks for the IdP's word of the last few seconds (refreshedWsSession).
 */
export async function requireWsSession(ctx: Ctx, request: Request, rule: OriginRule, { fresh = false } = {}): Promise<WsSessionRow> {
  const cookie = wsCookieOf(ctx, request);
  const found = cookie ? await findWsSession(ctx, cookie) : null;
  // Without a cookie at all nothing went wrong: the caller was never signed in (logged at debug, issue 42).
  if (!found) throw cookie ? unauthorized("no workspace session") : expectedRefusal(unauthorized("no workspace cookie"));
  const refusal = originRefusal(ctx.config, request, rule);
  if (refusal) throw forbidden(refusal);
  if (fresh) return refreshedWsSession(ctx, found);
  const session = await confirmedSession(ctx, found);
  if (!session) throw unauthorized("the identity provider ended this session");
  return session;
}

/**
 * The session with the IdP's answer of the last few seconds (session-check.ts, freshSession): for
 * a page load, and for a team the session does not list, which may have been created or joined at
 * the IdP since. 401 `Unauthorized` when the IdP ended the session.
 */
export async function refreshedWsSession(ctx: Ctx, session: WsSessionRow): Promise<WsSessionRow> {
  const fresher = await freshSession(ctx, session);
  if (!fresher) throw unauthorized("the identity provider ended this session");
  return fresher;
}
