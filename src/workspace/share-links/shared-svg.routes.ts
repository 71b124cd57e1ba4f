import { asc, eq } from "drizzle-orm";
import { Elysia } from "elysia";
import type { AppContext } from "../../context/context.ts";
import { renderBadge } from "../svg/badge.ts";
import { BADGE_PARAMS, CHECKLIST_PARAMS, knownValues, type SvgQuery, type SvgSet } from "../svg/svg-input.ts";
import { renderTodoList } from "../svg/todo-list-svg.ts";
import { loadSvgLibraries } from "../svg/svg-libraries.ts";
import { SVG_HEADERS } from "../svg/svg-response.ts";
import type { SetRow } from "../storage/todos.repo.ts";
import { todos } from "../storage/todos.table.ts";
import { shareLinkPlugin } from "./share-link.plugin.ts";
import type { SharedVisit } from "./shared.service.ts";
import { cacheKey } from "./svg-cache.ts";

/** What the images draw: the set's name, layout and todos (read-only; flags and allow-list do not apply). */
async function svgSet(ctx: AppContext, set: SetRow): Promise<SvgSet> {
  const rows = await ctx.db
    .select({ id: todos.id, parentId: todos.parentId, title: todos.title, completed: todos.completed, sortOrder: todos.sortOrder })
    .from(todos)
    .where(eq(todos.setId, set.id))
    .orderBy(asc(todos.sortOrder), asc(todos.createdAt), asc(todos.id))
    .all();
  return { name: set.name, splitCompleted: set.splitCompleted, todos: rows };
}

/**
 * Spec 2 section 4.4: `badge.svg` and `todo-list.svg`, cached 60 s in the server and by clients.
 * An unknown token or a deleted set is a 404 badge reading "not found" (the `shareLink` macro's "image").
 */
export function sharedSvgRoutes(ctx: AppContext) {
  const image =
    (kind: "badge" | "todo-list", known: readonly string[], render: (set: SvgSet, query: SvgQuery) => string) =>
    async ({ visit: { link, set }, query: raw }: { visit: SharedVisit; query: Record<string, unknown> }) => {
      const query = knownValues(raw, known);
      const key = cacheKey(link.id, kind, query);
      const hit = ctx.workspace.svgImages.get(key, ctx.clock.now());
      if (hit !== undefined) return new Response(hit, { headers: SVG_HEADERS });
      await loadSvgLibraries();
      const svg = render(await svgSet(ctx, set), query);
      ctx.workspace.svgImages.store(key, link.id, svg, ctx.clock.now());
      return new Response(svg, { headers: SVG_HEADERS });
    };
  return new Elysia({ name: "shared-svg-routes" })
    .use(shareLinkPlugin(ctx))
    .get("/api/shared/:token/badge.svg", image("badge", BADGE_PARAMS, renderBadge), { shareLink: "image" })
    .get("/api/shared/:token/todo-list.svg", image("todo-list", CHECKLIST_PARAMS, renderTodoList), { shareLink: "image" });
}
