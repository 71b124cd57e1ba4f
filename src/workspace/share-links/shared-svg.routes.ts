import { Elysia } from "elysia";
import type { AppContext } from "../../context.ts";
import { AppError } from "../../shared/errors.ts";
import { renderBadge, renderNotFoundBadge } from "../svg/badge.ts";
import type { SvgQuery, SvgSet } from "../svg/svg-input.ts";
import { renderTodoList } from "../svg/todo-list-svg.ts";
import { findSet } from "../todos/todos.repo.ts";
import { todos } from "../todos/todos.table.ts";
import { asc, eq } from "drizzle-orm";
import { resolveLink } from "./shared.service.ts";
import { cacheKey, cachedSvg, storeSvg } from "./svg-cache.ts";

const MAX_PARAM = 200;

/**
 * Text parameters only, each at most 200 characters (a label longer than that only makes a
 * wider image and another cache entry); a parameter that arrives as a list counts once.
 */
function firstValues(raw: Record<string, unknown>): SvgQuery {
  const out: SvgQuery = {};
  for (const [key, value] of Object.entries(raw)) {
    const first = Array.isArray(value) ? value[0] : value;
    if (typeof first === "string") out[key.slice(0, MAX_PARAM)] = first.slice(0, MAX_PARAM);
  }
  return out;
}

const SVG_HEADERS = { "content-type": "image/svg+xml; charset=utf-8", "cache-control": "public, max-age=60" };

/** What the images draw: the set's name, layout and todos (read-only; flags and allow-list do not apply). */
function svgSet(ctx: AppContext, teamId: string, setId: string): SvgSet | null {
  const set = findSet(ctx, teamId, setId);
  if (!set) return null;
  const rows = ctx.db
    .select({ id: todos.id, parentId: todos.parentId, title: todos.title, completed: todos.completed, sortOrder: todos.sortOrder })
    .from(todos)
    .where(eq(todos.setId, setId))
    .orderBy(asc(todos.sortOrder), asc(todos.createdAt), asc(todos.id))
    .all();
  return { name: set.name, splitCompleted: set.splitCompleted, todos: rows };
}

/**
 * Spec 2 section 4.4: `badge.svg` and `todo-list.svg`, cached 60 s in the server and by clients.
 * An unknown token or a deleted set is a 404 badge reading "not found".
 */
export function sharedSvgRoutes(ctx: AppContext) {
  const image = (kind: "badge" | "todo-list", render: (set: SvgSet, query: SvgQuery) => string) => (c: { params: { token: string }; query: Record<string, unknown> }) => {
    const query = firstValues(c.query);
    try {
      const { link } = resolveLink(ctx, c.params.token);
      const key = cacheKey(link.id, kind, query);
      const hit = cachedSvg(key, ctx.clock.now());
      if (hit !== undefined) return new Response(hit, { headers: SVG_HEADERS });
      const set = svgSet(ctx, link.teamId, link.setId);
      if (!set) throw new AppError(404, "Set not found");
      const svg = render(set, query);
      storeSvg(key, link.id, svg, ctx.clock.now());
      return new Response(svg, { headers: SVG_HEADERS });
    } catch (e) {
      if (e instanceof AppError && e.status === 404) return new Response(renderNotFoundBadge(query), { status: 404, headers: { ...SVG_HEADERS, "cache-control": "no-store" } });
      throw e;
    }
  };
  return new Elysia({ name: "shared-svg-routes", prefix: "/api/shared/:token" })
    .get("/badge.svg", image("badge", renderBadge))
    .get("/todo-list.svg", image("todo-list", renderTodoList));
}
