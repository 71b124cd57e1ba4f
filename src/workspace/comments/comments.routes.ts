import { Elysia, t } from "elysia";
import type { AppContext } from "../../context/context.ts";
import { Ok } from "../../contract/api/common.ts";
import { CommentList, CreatedComment } from "../../contract/api/workspace.ts";
import { workspacePlugin } from "../plugin/workspace.plugin.ts";
import { addComment, deleteComment, listComments } from "./comments.service.ts";

/** ARCHITECTURE section 4 "Comments". */
export function commentsRoutes(ctx: AppContext) {
  // Built per app: Elysia writes into the schemas and hooks it is given.
  const Params = t.Object({ teamId: t.String(), id: t.String({ maxLength: 200 }) });
  return new Elysia({ name: "comments-routes" })
    .use(workspacePlugin(ctx))
    .get("/api/teams/:teamId/todos/:id/comments", ({ caller, params }) => listComments(ctx, caller, params.id), {
      workspace: "member",
      params: Params,
      response: CommentList,
    })
    .post(
      "/api/teams/:teamId/todos/:id/comments",
      async ({ caller, params, body, set }) => {
        const answer = await addComment(ctx, caller, params.id, body.body);
        set.status = 201;
        return answer;
      },
      { workspace: "member", params: Params, body: t.Object({ body: t.Optional(t.String({ maxLength: 10_000 })) }), response: { 201: CreatedComment } },
    )
    .delete("/api/teams/:teamId/comments/:commentId", ({ caller, params }) => deleteComment(ctx, caller, params.commentId), {
      workspace: "member",
      params: t.Object({ teamId: t.String(), commentId: t.String({ maxLength: 200 }) }),
      response: Ok,
    });
}
