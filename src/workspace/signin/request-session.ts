import { type OriginRule, originRefusal } from "../../auth/csrf.ts";
import { forbidden, unauthorized } from "../../shared/errors.ts";
import type { WsSessionRow } from "../storage/signin.table.ts";
import { confirmedSession } from "./session-check.ts";
import { findWsSession } from "./signin.service.ts";
import { wsCookieOf } from "./ws-cookie.ts";

type Ctx = Parameters<typeof confirmedSession>[0];

/**
 * The workspace session behind a request, as the IdP sees it now (confirmed at least once a
 * minute, session-check.ts): 401 `Unauthorized` without a live one, 403 `Forbidden` when the
 * Origin breaks the rule (the session is a cookie). Every workspace entry point starts here.
 */
export async function requireWsSession(ctx: Ctx, request: Request, rule: OriginRule): Promise<WsSessionRow> {
  const cookie = wsCookieOf(ctx, request);
  const found = cookie ? findWsSession(ctx, cookie) : null;
  if (!found) throw unauthorized("no workspace session");
  const refusal = originRefusal(ctx.config, request, rule);
  if (refusal) throw forbidden(refusal);
  const session = await confirmedSession(ctx, found);
  if (!session) throw unauthorized("the identity provider ended this session");
  return session;
}
