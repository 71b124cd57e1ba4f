import type { DocumentDecoration } from "elysia";

/**
 * The shape a router's routes answer the errors the HTTP core makes (a body it cannot read, a
 * route that does not exist, a write that could not be saved): the spec's `{error, code}`, or RFC
 * 6749's `{error, error_description}` (the identity and OAuth APIs), or RFC 6749's with RFC 7591's
 * code for malformed client metadata (dynamic registration).
 */
export type ErrorStyle = "spec" | "rfc6749" | "rfc7591";

/** An OpenAPI vendor extension on each route: Elysia keeps a plugin's `detail` on every route it declares. */
const KEY = "x-error-style";

/**
 * A routes plugin's or a route's `detail` option declaring its error style; a router without one
 * answers in the spec's. `new Elysia({ name, detail: errorStyle("rfc6749") })`.
 */
export const errorStyle = (style: ErrorStyle): DocumentDecoration => ({ [KEY]: style }) as DocumentDecoration;

/** What the style lookup reads of the app's route table (Elysia's `app.routes`). */
export type Route = { path: string; hooks?: { detail?: unknown } };

const styleOf = (route: Route): ErrorStyle => ((route.hooks?.detail as Record<string, ErrorStyle> | undefined)?.[KEY] ?? "spec") as ErrorStyle;

/** How many leading segments of `folder` a route's path matches (a parameter matches any one). */
function shared(folder: readonly string[], route: readonly string[]): number {
  let n = 0;
  while (n < folder.length && n < route.length && (route[n] === folder[n] || route[n]?.startsWith(":"))) n++;
  return n;
}

/**
 * Asks the router that owns a path for its error style, from the app's own route table (read once,
 * at the first error: the table is complete by then). A matched route answers for itself. An
 * unknown path has no route to ask: it answers as the routes nearest its folder do, in the RFC
 * shape when none of them uses the spec's (so `/api/oauth/nope` answers like the OAuth API, and
 * `/api/nope` like the spec).
 */
export function routeStyles(routes: () => readonly Route[]) {
  let table: { byPath: Map<string, ErrorStyle>; segments: [string[], ErrorStyle][] } | undefined;
  const built = () => {
    if (table) return table;
    const all = routes();
    return (table = {
      byPath: new Map(all.map((r) => [r.path, styleOf(r)])),
      segments: all.map((r) => [r.path.split("/").slice(1), styleOf(r)]),
    });
  };
  return (route: string | undefined, path: string): ErrorStyle => {
    const { byPath, segments } = built();
    const own = route ? byPath.get(route) : undefined;
    if (own) return own;
    const folder = path.split("/").slice(1, -1);
    let best = 0;
    let styles: ErrorStyle[] = [];
    for (const [route, style] of segments) {
      const n = shared(folder, route);
      if (n > best) [best, styles] = [n, []];
      if (n === best) styles.push(style);
    }
    return best > 0 && styles.every((s) => s !== "spec") ? "rfc6749" : "spec";
  };
}
