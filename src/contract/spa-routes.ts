/**
 * Every path the web app's router answers (the `<Route path>`s of web/src/app.tsx, in its order),
 * shared with the server's catch-all (src/spa), which answers any other path 404 with the app's
 * not-found page. A page added to the router goes here too: test/foundation/spa-routes.test.ts
 * fails until it does. `:name` is one segment, as preact-iso reads it.
 */
export const SPA_ROUTES = [
  "/",
  "/setup",
  "/settings",
  "/login",
  "/register",
  "/reset-password",
  "/forgot-password",
  "/verify-email",
  "/account",
  "/teams",
  "/teams/:id",
  "/admin",
  "/apps",
  "/apps/:clientId",
  "/consent",
  "/device",
  "/2fa",
  "/logout",
  "/w",
  "/w/settings",
  "/w/:teamId",
  "/w/:teamId/settings",
  "/w/:teamId/assigned",
  "/w/:teamId/due-soon",
  "/w/:teamId/sets/:setId",
  "/s/:token",
] as const;

/** preact-iso's matching of one route (router.js `exec`): `:x` one segment, `:x?` optional, `:x*` / `:x+` / `*` the rest. */
function matches(url: string[], route: string[]): boolean {
  for (let i = 0; i < Math.max(url.length, route.length); i++) {
    const [, param = "", name = "", flag = ""] = /^(:?)(.*?)([+*?]?)$/.exec(route[i] ?? "") ?? [];
    const value = url[i];
    if (!param && name === value) continue;
    if (!param && value && flag === "*") return true;
    if (!param || (!value && flag !== "?" && flag !== "*")) return false;
    if (flag === "+" || flag === "*") return true;
  }
  return true;
}

/** Whether the web app has a page at `path` (empty segments and a trailing slash do not count, as in the router). */
export function isSpaRoute(path: string, routes: readonly string[] = SPA_ROUTES): boolean {
  const url = path.split("/").filter(Boolean);
  return routes.some((route) => matches(url, route.split("/").filter(Boolean)));
}
