import { asc, eq } from "drizzle-orm";
import { Elysia } from "elysia";
import type { AppContext } from "../../context/context.ts";
import { AppError } from "../../shared/errors.ts";
import { renderBadge, renderNotFoundBadge } from "../svg/badge.ts";
import type { SvgQuery, SvgSet } from "../svg/svg-input.ts";
import { renderTodoList } from "../svg/todo-list-svg.ts";
import { loadSvgLibraries } from "../svg/svg-libraries.ts";
import { findSet } from "../storage/todos.repo.ts";
import { todos } from "../storage/todos.table.ts";
import { resolveLink } from "./shared.service.ts";
import { cacheKey } from "./svg-cache.ts";
import { setNotFound } from "../storage/workspace.errors.ts";

const MAX_PARAM = 200;

/**
 * The known parameters, as text of at most 200 characters (a longer label only makes a wider
 * image and another cache entry); a parameter that arrives as a list counts once.
 */
function knownValues(raw: Record<string, unknown>, known: readonly string[]): SvgQuery {
  const out: SvgQuery = {};
  for (const key of known) {
    const value = raw[key];
    const first = Array.isArray(value) ? value[0] : value;
    if (typeof first === "string") out[key] = first.slice(0, MAX_PARAM);
  }
  return out;
}

// Spec 2 section 4.4's parameter tables. Anything else is ignored, so it can neither change the
// image nor make another cache entry.
const BADGE_PARAMS = ["style", "label", "message", "color", "labelColor"] as const;
const CHECKLIST_PARAMS = ["theme", "title", "width", "fontSize", "maxItems", "showProgress", "bgColor", "textColor", "checkColor", "borderColor"] as const;

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
  const image =
    (kind: "badge" | "todo-list", known: readonly string[], render: (set: SvgSet, query: SvgQuery) => string) =>
    async (c: { params: { token: string }; query: Record<string, unknown> }) => {
      const query = knownValues(c.query, known);
      try {
        const { link } = resolveLink(ctx, c.params.token);
        const key = cacheKey(link.id, kind, query);
        const hit = ctx.workspace.svgImages.get(key, ctx.clock.now());
        if (hit !== undefined) return new Response(hit, { headers: SVG_HEADERS });
        await loadSvgLibraries();
        const set = svgSet(ctx, link.teamId, link.setId);
        if (!set) throw setNotFound();
        const svg = render(set, query);
        ctx.workspace.svgImages.store(key, link.id, svg, ctx.clock.now());
        return new Response(svg, { headers: SVG_HEADERS });
      } catch (e) {
        if (e instanceof AppError && e.status === 404) {
          await loadSvgLibraries();
          return new Response(renderNotFoundBadge(knownValues(c.query, BADGE_PARAMS)), {
            status: 404,
            headers: { ...SVG_HEADERS, "cache-control": "no-store" },
          });
        }
        throw e;
      }
    };
  return new Elysia({ name: "shared-svg-routes", prefix: "/api/shared/:token" })
    .get("/badge.svg", image("badge", BADGE_PARAMS, renderBadge))
    .get("/todo-list.svg", image("todo-list", CHECKLIST_PARAMS, renderTodoList));
}
