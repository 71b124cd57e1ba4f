import { Elysia } from "elysia";
import type { AppContext } from "../../context/context.ts";
import { AppError } from "../../shared/errors.ts";
import { guardDetail } from "../../shared/guard-detail.ts";
import { notFoundImage } from "../svg/svg-response.ts";
import { viewLink, visitLink } from "./shared.service.ts";

/**
 * What a share-link route needs of its caller. A visitor's email travels in the query or in the
 * body (spec 2 section 4.4), and a GET's refusal says `requiresEmail` so the page can ask for it.
 * An "image" is for the SVGs: neither the link's flags nor its allow-list limit them, and a
 * missing link or set is answered with an image, not JSON.
 */
export type ShareLinkNeed = { email: "query" | "body"; read?: boolean } | "image";

/**
 * The `shareLink` macro (ARCHITECTURE section 3: a share link is a principal): the token in the
 * path resolves once per request to `visit`, the link with its set and its visitor as an actor
 * carrying the link's capabilities, or to the public error table's answer (unknown token, deleted
 * set, an email not on the allow-list). Every `/api/shared/:token` route names it.
 */
export function shareLinkPlugin(ctx: AppContext) {
  return new Elysia({ name: "share-link-plugin" }).macro({
    shareLink: (need: ShareLinkNeed) => ({
      detail: guardDetail("shareLink", need),
      async resolve({ params, query, body, status }) {
        const { token } = params as { token: string };
        if (need !== "image") {
          // Issue 44: a verified code's `grant` travels beside the email, the same way.
          const visitor = (need.email === "query" ? query : body) as { email?: string; grant?: string } | undefined;
          return { visit: await visitLink(ctx, token, { email: visitor?.email, grant: visitor?.grant }, { onRead: need.read }) };
        }
        try {
          return { visit: await viewLink(ctx, token) };
        } catch (e) {
          if (e instanceof AppError && e.status === 404) return status(404, await notFoundImage(query));
          throw e;
        }
      },
    }),
  });
}
