import { Elysia, t } from "elysia";
import type { AppContext } from "../../context/context.ts";
import { MailStatus } from "../../contract/api/workspace-mail.ts";
import { workspacePlugin } from "../plugin/workspace.plugin.ts";
import { mailStatus } from "./mail-status.service.ts";
import { NOTICE_NAMES, type NoticeKind } from "./notice-kinds.ts";
import { preferencesUrl } from "./notice-mail.ts";
import { unsubscribePage } from "./unsubscribe-page.ts";
import { unsubscribe, unsubscribeKind } from "./unsubscribe.service.ts";

/** Issue 44: the workspace's mail notices: where they go, and their one-click unsubscribe link (RFC 8058). */
export function noticesRoutes(ctx: AppContext) {
  // A missing token is answered like a wrong one: with a page, since a person's browser opened it.
  const TokenQuery = t.Object({ token: t.Optional(t.String({ maxLength: 1000 })) });
  const invalid = () =>
    unsubscribePage({
      status: 400,
      tone: "error",
      title: "This unsubscribe link does not work",
      paragraphs: ["It may have been cut short when it was copied. Open the link from the mail again, or turn notices off in your workspace preferences."],
      end: { href: preferencesUrl(ctx), label: "Open preferences" },
    });
  // RFC 8058: GET only asks (mail scanners and link previews open links by themselves); POST does it.
  const answer = (kind: NoticeKind | null, done: boolean) => {
    if (!kind) return invalid();
    const words = done
      ? { title: "Unsubscribed", paragraphs: [`You will no longer get ${NOTICE_NAMES[kind]}.`], end: { href: preferencesUrl(ctx), label: "Open preferences" } }
      : {
          title: "Unsubscribe?",
          paragraphs: [`Stop ${NOTICE_NAMES[kind]}? You can turn it on again in your workspace preferences.`],
          end: { button: "Unsubscribe" },
        };
    return unsubscribePage({ status: 200, tone: "ok", ...words });
  };
  return (
    new Elysia({ name: "notices-routes" })
      .use(workspacePlugin(ctx))
      .get("/api/workspace/mail", ({ caller }) => mailStatus(ctx, caller), { workspaceSession: true, response: MailStatus })
      .get("/api/workspace/unsubscribe", ({ query }) => answer(unsubscribeKind(ctx, query.token ?? ""), false), { query: TokenQuery })
      // A mail client's one-click POST (body `List-Unsubscribe=One-Click`), or the page's button. No sign-in.
      .post("/api/workspace/unsubscribe", async ({ query }) => answer(await unsubscribe(ctx, query.token ?? ""), true), { query: TokenQuery })
  );
}
