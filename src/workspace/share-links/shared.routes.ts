import { Elysia, t } from "elysia";
import type { AppContext } from "../../context/context.ts";
import { type RealtimeEvent, SHARED_SET_EVENT_TYPES } from "../../contract/realtime.ts";
import { sseFrame } from "../realtime/realtime.routes.ts";
import { sseResponse } from "../realtime/sse-stream.ts";
import { emailAllowed, findByToken } from "../storage/share-links.repo.ts";
import { createShared, deleteShared, openLink, patchShared, readShared, reorderShared } from "./shared.service.ts";
import { linkRefusal } from "../storage/workspace.errors.ts";

const PUBLIC_EVENTS = new Set<string>(SHARED_SET_EVENT_TYPES);

/** Spec 2 section 4.4: a share link's public side. No session: the token and its flags decide. */
export function sharedRoutes(ctx: AppContext) {
  const Id = t.String({ minLength: 1, maxLength: 200 });
  const Order = t.Integer({ minimum: -1_000_000_000, maximum: 1_000_000_000 });
  const Email = t.Optional(t.String({ maxLength: 320 }));
  const TokenParams = t.Object({ token: t.String({ maxLength: 200 }) });
  const TodoParams = t.Object({ token: t.String({ maxLength: 200 }), id: Id });
  const EmailQuery = t.Object({ email: Email });
  return new Elysia({ name: "shared-routes", prefix: "/api/shared/:token" })
    .get(
      "",
      ({ params, query, set }) => {
        const text = readShared(ctx, params.token, query.email);
        set.headers["content-type"] = "application/json";
        set.headers["cache-control"] = "no-store";
        return text;
      },
      { params: TokenParams, query: EmailQuery },
    )
    .post(
      "/todos",
      ({ params, body, set }) => {
        const answer = createShared(ctx, params.token, body);
        set.status = 201;
        return answer;
      },
      { params: TokenParams, body: t.Object({ title: t.Optional(t.String({ maxLength: 1000 })), parentId: t.Optional(t.Nullable(Id)), email: Email }) },
    )
    .post("/todos/reorder", ({ params, body }) => reorderShared(ctx, params.token, body), {
      params: TokenParams,
      body: t.Object({ items: t.Optional(t.Array(t.Object({ id: Id, sortOrder: Order }), { maxItems: 10_000 })), email: Email }),
    })
    .patch("/todos/:id", ({ params, body }) => patchShared(ctx, params.token, params.id, body), {
      params: TodoParams,
      body: t.Object({ title: t.Optional(t.String({ maxLength: 1000 })), completed: t.Optional(t.Boolean()), sortOrder: t.Optional(Order), email: Email }),
    })
    .delete("/todos/:id", ({ params, query }) => deleteShared(ctx, params.token, params.id, query.email), { params: TodoParams, query: EmailQuery })
    .get(
      "/events",
      ({ params, query, request, server }) => {
        const { link, set, capabilities } = openLink(ctx, params.token, query.email, { onRead: true });
        if (!capabilities.canView) throw linkRefusal("viewing");
        // The link is looked up again on every push: deleting it, or a new allow-list without this
        // visitor's email, ends the stream at once.
        const stillOpen = () => {
          const now = findByToken(ctx, params.token);
          return now !== undefined && now.id === link.id && now.setDeletedAt === null && now.canView && emailAllowed(now.allowedEmails, query.email);
        };
        return sseResponse(ctx, {
          request,
          server,
          teamId: link.teamId,
          verdict: (event: RealtimeEvent) => (!stillOpen() ? "close" : event.setId === set.id && PUBLIC_EVENTS.has(event.type) ? "send" : "skip"),
          alive: stillOpen,
          frame: sseFrame,
        });
      },
      { params: TokenParams, query: EmailQuery },
    );
}
