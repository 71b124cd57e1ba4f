import { describe, expect, it } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { collectRoutes, REFRESH_COMMAND, renderRoutesPage, ROUTES_PAGE, routeKey, withThrowawayApp } from "../../src/build/routes-table.ts";

/*
 * docs/routes.md is the map from a URL to the file that serves it: generated from the app's own
 * router, so it is only worth reading while it is current and complete.
 */
const ROOT = join(import.meta.dir, "../..");
const committed = readFileSync(ROUTES_PAGE, "utf8");
const rows = [...committed.matchAll(/^\| (\w+) \| `([^`]+)` \| [^|]+ \| \[([^\]]+)\]/gm)].map(([, method, path, file]) => ({
  method: method as string,
  path: path as string,
  file: file as string,
}));

describe("docs/routes.md", () => {
  it("is what the app's router generates now", async () => {
    const fresh = renderRoutesPage(await collectRoutes());
    expect(fresh === committed ? "current" : `docs/routes.md is stale: run \`${REFRESH_COMMAND}\` and commit it`).toBe("current");
  });

  it("lists every route of the app", async () => {
    const listed = new Set(rows.map(routeKey));
    const routes = await withThrowawayApp((app) => app.routes.map(routeKey));
    expect(routes.filter((route) => !listed.has(route))).toEqual([]);
    expect(rows.length).toBe(routes.length);
  });

  it("names, for each route, a file that writes the route's full path literally (no prefix to add up)", () => {
    const sources = new Map<string, string>();
    const source = (file: string) => sources.get(file) ?? sources.set(file, readFileSync(join(ROOT, file), "utf8")).get(file);
    expect(rows.filter((row) => !source(row.file)?.includes(`"${row.path}"`)).map(routeKey)).toEqual([]);
  });
});
