import { Elysia, t } from "elysia";
import type { AppContext } from "../../context/context.ts";
import { Ok } from "../../contract/api/common.ts";
import { CreatedLink, LinkList } from "../../contract/api/share-links.ts";
import { workspacePlugin } from "../plugin/workspace.plugin.ts";
import { createLink, deleteLink, listSetLinks, listTeamLinks, updateLink } from "./share-links.service.ts";

/** Built per app: Elysia writes into the schemas it is given. Unknown fields are dropped, so a patch of only those is `No updates`. */
function linkSchemas() {
  const flag = () => t.Optional(t.Boolean());
  return {
    LinkBody: t.Object({
      name: t.Optional(t.String({ maxLength: 200 })),
      canView: flag(),
      canCreate: flag(),
      canEdit: flag(),
      canComplete: flag(),
      canDelete: flag(),
      canComment: flag(),
      canReorder: flag(),
      allowedEmails: t.Optional(t.String({ maxLength: 10_000 })),
      requireEmailCode: flag(),
    }),
    SetParams: t.Object({ teamId: t.String(), setId: t.String({ minLength: 1, maxLength: 200 }) }),
    LinkParams: t.Object({ teamId: t.String(), linkId: t.String({ minLength: 1, maxLength: 200 }) }),
  };
}

/** Spec 2 section 4.3: share-link management. */
export function shareLinksRoutes(ctx: AppContext) {
  const { LinkBody, SetParams, LinkParams } = linkSchemas();
  const member = () => ({ workspace: "member" as const });
  return new Elysia({ name: "share-links-routes" })
    .use(workspacePlugin(ctx))
    .get("/api/teams/:teamId/sets/:setId/share-links", ({ caller, params }) => listSetLinks(ctx, caller, params.setId), {
      ...member(),
      params: SetParams,
      response: LinkList,
    })
    .get("/api/teams/:teamId/share-links", ({ caller }) => listTeamLinks(ctx, caller), { ...member(), response: LinkList })
    .post(
      "/api/teams/:teamId/sets/:setId/share-links",
      async ({ caller, params, body, set }) => {
        const answer = await createLink(ctx, caller, params.setId, body ?? {});
        set.status = 201;
        return answer;
      },
      { ...member(), params: SetParams, body: t.Optional(LinkBody), response: { 201: CreatedLink } },
    )
    .patch("/api/teams/:teamId/share-links/:linkId", ({ caller, params, body }) => updateLink(ctx, caller, params.linkId, body), {
      ...member(),
      params: LinkParams,
      body: LinkBody,
      response: Ok,
    })
    .delete("/api/teams/:teamId/share-links/:linkId", ({ caller, params }) => deleteLink(ctx, caller, params.linkId), {
      ...member(),
      params: LinkParams,
      response: Ok,
    });
}
