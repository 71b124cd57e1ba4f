import { createHmac } from "node:crypto";
import type { AppContext } from "../../context/context.ts";
import { constantTimeEqual } from "../../shared/crypto.ts";
import { isNoticeKind, type NoticeKind } from "./notice-kinds.ts";

const PURPOSE = "workspace notice unsubscribe";

const signature = (ctx: Pick<AppContext, "secrets">, payload: string) => createHmac("sha256", ctx.secrets.derive(PURPOSE)).update(payload).digest("base64url");

/**
 * The token of a notice's one-click unsubscribe link (RFC 8058): the person and the kind, signed
 * with a key of this instance. No sign-in is needed to use it and it does not expire: a link in an
 * old mail must still stop the mail. It can only ever turn one kind of notice off.
 */
export function unsubscribeToken(ctx: Pick<AppContext, "secrets">, userId: string, kind: NoticeKind): string {
  const payload = Buffer.from(`${kind}:${userId}`).toString("base64url");
  return `${payload}.${signature(ctx, payload)}`;
}

/** Whom and what a token names, or null when it is not one this instance signed. */
export function readUnsubscribeToken(ctx: Pick<AppContext, "secrets">, token: string): { userId: string; kind: NoticeKind } | null {
  const [payload, sig, extra] = token.split(".");
  if (!payload || !sig || extra !== undefined || !constantTimeEqual(sig, signature(ctx, payload))) return null;
  const text = Buffer.from(payload, "base64url").toString("utf8");
  const colon = text.indexOf(":");
  const kind = text.slice(0, colon);
  const userId = text.slice(colon + 1);
  return colon > 0 && isNoticeKind(kind) && userId !== "" ? { userId, kind } : null;
}
