import { Elysia, t } from "elysia";
import type { AppContext } from "../../context/context.ts";
import { Ok } from "../../contract/api/common.ts";
import { SharedSet } from "../../contract/api/share-links.ts";
import { CreatedTodo } from "../../contract/api/workspace.ts";
import { sseResponse } from "../realtime/sse-stream.ts";
import { visitorAdmittedUntil } from "./email-grant.ts";
import { createShared, deleteShared, patchShared, readShared, reorderShared } from "./shared.service.ts";
import { linkRefusal } from "../storage/workspace.errors.ts";
import { shareLinkPlugin } from "./share-link.plugin.ts";
import { listQueryFields } from "../todos/todos.schemas.ts";

/** Spec 2 section 4.4: a share link's public side. No session: the token and its flags decide (the `shareLink` macro). */
export function sharedRoutes(ctx: AppContext) {
  const Id = t.String({ minLength: 1, maxLength: 200 });
  const Order = t.Integer({ minimum: -1_000_000_000, maximum: 1_000_000_000 });
  const Email = t.Optional(t.String({ maxLength: 320 }));
  const Grant = t.Optional(t.String({ maxLength: 1000 }));
  const TokenParams = t.Object({ token: t.String({ maxLength: 200 }) });
  const TodoParams = t.Object({ token: t.String({ maxLength: 200 }), id: Id });
  const EmailQuery = t.Object({ email: Email, grant: Grant });
  // Spec 2 section 4.4: the visitor's email comes as a query parameter, or as a body field where there is a body.
  const reader = { shareLink: { email: "query", read: true } } as const;
  const writer = { shareLink: { email: "body" } } as const;
  return new Elysia({ name: "shared-routes" })
    .use(shareLinkPlugin(ctx))
    .get(
      "/api/shared/:token",
      async ({ visit, query, set }) => {
        set.headers["cache-control"] = "no-store";
        // Prebuilt JSON bytes (from the list cache): the schema types it, and Elysia checks no Response.
        return new Response(await readShared(ctx, visit, query), { headers: { "content-type": "application/json" } });
      },
      { ...reader, params: TokenParams, query: t.Object({ email: Email, grant: Grant, ...listQueryFields() }), response: SharedSet },
    )
    .post(
      "/api/shared/:token/todos",
      async ({ visit, body, set }) => {
        const answer = await createShared(ctx, visit.actor, body);
        set.status = 201;
        return answer;
      },
      {
        ...writer,
        params: TokenParams,
        body: t.Object({ title: t.Optional(t.String({ maxLength: 1000 })), parentId: t.Optional(t.Nullable(Id)), email: Email, grant: Grant }),
        response: { 201: CreatedTodo },
      },
    )
    .post("/api/shared/:token/todos/reorder", ({ visit, body }) => reorderShared(ctx, visit.actor, body), {
      ...writer,
      params: TokenParams,
      body: t.Object({ items: t.Optional(t.Array(t.Object({ id: Id, sortOrder: Order }), { maxItems: 10_000 })), email: Email, grant: Grant }),
      response: Ok,
    })
    .patch("/api/shared/:token/todos/:id", ({ visit, params, body }) => patchShared(ctx, visit.actor, params.id, body), {
      ...writer,
      params: TodoParams,
      body: t.Object({
        title: t.Optional(t.String({ maxLength: 1000 })),
        completed: t.Optional(t.Boolean()),
        sortOrder: t.Optional(Order),
        email: Email,
        grant: Grant,
      }),
      response: Ok,
    })
    .delete("/api/shared/:token/todos/:id", ({ visit, params }) => deleteShared(ctx, visit.actor, params.id), {
      shareLink: { email: "query" },
      params: TodoParams,
      query: EmailQuery,
      response: Ok,
    })
    .get(
      "/api/shared/:token/events",
      ({ visit: { link, actor }, query, request, server }) => {
        if (!actor.capabilities.canView) throw linkRefusal("viewing");
        // The realtime hub ends the stream at once when the link is deleted, stops allowing viewing,
        // this visitor's email or their code's grant (issue 44), or its set is deleted; and when that grant expires.
        return sseResponse(ctx, {
          request,
          server,
          join: (since, sink) => ctx.workspace.realtime.joinAsVisitor(link, (row) => visitorAdmittedUntil(ctx, row, query.email, query.grant), since, sink),
        });
      },
      { ...reader, params: TokenParams, query: EmailQuery },
    );
}
