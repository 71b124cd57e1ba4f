import type { AppContext } from "../../context/context.ts";
import { composeMail } from "../../mail/compose.ts";
import { enqueueMail } from "../../mail/outbox.service.ts";
import { headerLine } from "../../shared/text.ts";
import { NOTICE_NAMES, type NoticeKind } from "./notice-kinds.ts";
import { unsubscribeToken } from "./unsubscribe-token.ts";

export type NoticeMailCtx = Parameters<typeof enqueueMail>[0] & Pick<AppContext, "config" | "secrets" | "log">;

export type NoticeContent = { subject: string; heading: string; lines: string[]; action: { label: string; url: string } };

/** The page where a signed-in person turns each notice on or off. */
export const preferencesUrl = (ctx: Pick<AppContext, "config">) => `${ctx.config.issuer}/w/settings`;

/** The one-click unsubscribe address of a kind of notice for one person (RFC 8058). */
export const unsubscribeUrl = (ctx: Pick<AppContext, "config" | "secrets">, userId: string, kind: NoticeKind) =>
  `${ctx.config.issuer}/api/workspace/unsubscribe?token=${unsubscribeToken(ctx, userId, kind)}`;

/**
 * Queues one notice, in the caller's transaction (the mail exists exactly when the change does),
 * with RFC 8058 one-click unsubscribe headers and the same link in the body. A notice never fails
 * the change it reports: a message the outbox refuses is logged and left out.
 */
export async function enqueueNotice(
  ctx: NoticeMailCtx,
  to: { userId: string; email: string; name: string | null },
  kind: NoticeKind,
  content: NoticeContent,
): Promise<void> {
  const unsubscribe = unsubscribeUrl(ctx, to.userId, kind);
  const footer = `You get this because you turned on ${NOTICE_NAMES[kind]} in your workspace preferences (${preferencesUrl(ctx)}). Stop it with one click: ${unsubscribe}`;
  const body = composeMail({ heading: content.heading, lines: content.lines, action: content.action, footer });
  try {
    await enqueueMail(ctx, {
      to: to.email,
      toName: to.name === null ? null : headerLine(to.name),
      subject: content.subject,
      text: body.text,
      html: body.html,
      kind,
      userId: to.userId,
      headers: { "List-Unsubscribe": `<${unsubscribe}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
    });
  } catch (e) {
    ctx.log.warn("workspace notice left out", { kind, error: (e as Error).message });
  }
}
