/**
 * `npm run routes`: docs/routes.md, every route of the app with its method, full path, guard and
 * the file that declares it, read from the app's own router (Elysia's `app.routes`) built on a
 * throwaway context. The guard is what the route asks of the guard macros (`auth`, `workspace`,
 * `workspaceSession`, `shareLink`: src/shared/guard-detail.ts). The file is found by building each
 * routes plugin of every `src/**\/*.routes.ts` on its own and reading its routes.
 * test/foundation/routes-table.test.ts fails when the page is stale.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import type { AnyElysia } from "elysia";
import { createApp } from "../app.ts";
import { bootContext } from "../boot.ts";
import { loadConfig } from "../config/config.ts";
import type { AppContext } from "../context/context.ts";
import { closeDatabase } from "../db/client.ts";
import { guardsOf } from "../shared/guard-detail.ts";
import { createLogger } from "../shared/log.ts";

const ROOT = join(import.meta.dir, "../..");
export const ROUTES_PAGE = join(ROOT, "docs/routes.md");
export const REFRESH_COMMAND = "npm run routes";

export type RouteRow = { method: string; path: string; guard: string; file: string };
/** What the table reads of a route of Elysia's `app.routes`. */
type Route = { method: string; path: string; hooks?: { detail?: unknown } };

/** Runs `use` on the real app, built on a context of its own over a fresh data folder, removed after. */
export async function withThrowawayApp<T>(use: (app: AnyElysia, ctx: AppContext) => T | Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), "cairn-routes-"));
  const ctx = await bootContext(loadConfig({ CAIRN_DATA: dir, CAIRN_ISSUER: "http://localhost:3000" }), { log: createLogger("silent") });
  try {
    return await use(createApp(ctx), ctx);
  } finally {
    closeDatabase(ctx.db);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A route as the table and the tests name it. */
export const routeKey = (route: { method: string; path: string }) => `${route.method} ${route.path}`;

/** Routes factories whose arguments are not `(ctx, handle)`. */
const ARGUMENTS: Record<string, (ctx: AppContext) => unknown[]> = { spaRoutes: (ctx) => [ctx.config.issuer] };

function routesFiles(dir = join(ROOT, "src")): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return routesFiles(path);
    return entry.name.endsWith(".routes.ts") ? [relative(ROOT, path)] : [];
  });
}

/**
 * Which file declares each route: every `*Routes` factory of every routes file, built on its own.
 * A plugin that uses another (health uses metrics, docs the webhook) lists that one's routes too:
 * a route goes to the smallest plugin that has it, the one that declares it.
 */
async function declaringFiles(ctx: AppContext, app: AnyElysia): Promise<Map<string, string>> {
  const plugins: { file: string; routes: string[] }[] = [];
  const handle = (request: Request) => app.handle(request);
  for (const file of routesFiles()) {
    const exports: Record<string, unknown> = await import(join(ROOT, file));
    for (const [name, factory] of Object.entries(exports)) {
      if (typeof factory !== "function" || !name.endsWith("Routes")) continue;
      const plugin = factory(...(ARGUMENTS[name]?.(ctx) ?? [ctx, handle])) as AnyElysia;
      plugins.push({ file, routes: plugin.routes.map(routeKey) });
    }
  }
  plugins.sort((a, b) => b.routes.length - a.routes.length);
  const files = new Map<string, string>();
  for (const { file, routes } of plugins) for (const route of routes) files.set(route, file);
  return files;
}

const code = (text: string) => `\`${text}\``;
const oneOf = (value: unknown) => (Array.isArray(value) ? value : [value]).map((v) => code(String(v))).join(" or ");

/** What the `auth` macro demands (access/access.plugin.ts AuthNeed). */
function authGuard(need: unknown): string {
  const n = (need === true ? {} : need) as { session?: boolean; admin?: boolean; scope?: unknown; team?: string; stepUp?: { acr?: string; maxAge?: number } };
  const stepUp =
    n.stepUp && [n.stepUp.acr && `acr ${code(n.stepUp.acr)}`, n.stepUp.maxAge !== undefined && `max_age ${n.stepUp.maxAge}`].filter(Boolean).join(", ");
  const parts = [
    n.session && "session",
    n.admin && "admin",
    n.scope !== undefined && `scope ${oneOf(n.scope)}`,
    n.team && `team ${code(n.team)}`,
    stepUp && `step-up (${stepUp})`,
  ].filter(Boolean);
  return parts.length ? parts.join(", ") : "signed in";
}

/** What the share-link macro demands (workspace/share-links/share-link.plugin.ts ShareLinkNeed). */
function shareLinkGuard(need: unknown): string {
  if (need === "image") return "share link (image)";
  return `share link (email in ${(need as { email: string }).email})`;
}

/** The guard column: what the route's guard macros demand, or "public" when it names none. */
export function describeGuard(route: Route): string {
  const guards = Object.entries(guardsOf(route)).map(([macro, options]) => {
    if (macro === "auth") return authGuard(options);
    if (macro === "shareLink") return shareLinkGuard(options);
    if (macro === "workspace") return `workspace ${options}`;
    if (macro === "workspaceSession") return "workspace session";
    throw new Error(`routes table: no description for the guard macro "${macro}"`);
  });
  return guards.length ? guards.join("; ") : "public";
}

const METHOD_ORDER = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "ALL", "WS"];
const byPathThenMethod = (a: RouteRow, b: RouteRow) =>
  a.path < b.path ? -1 : a.path > b.path ? 1 : METHOD_ORDER.indexOf(a.method) - METHOD_ORDER.indexOf(b.method);

/** Every route of the app as a row of the table. Throws for a route that no routes file declares. */
export async function collectRoutes(): Promise<RouteRow[]> {
  return withThrowawayApp(async (app, ctx) => {
    const files = await declaringFiles(ctx, app);
    const orphans = app.routes.filter((route) => !files.has(routeKey(route))).map(routeKey);
    if (orphans.length) throw new Error(`routes declared outside every src/**/*.routes.ts plugin: ${orphans.join(", ")}`);
    return app.routes
      .map((route) => ({ method: route.method, path: route.path, guard: describeGuard(route), file: files.get(routeKey(route)) as string }))
      .sort(byPathThenMethod);
  });
}

export function renderRoutesPage(rows: readonly RouteRow[]): string {
  const lines = rows.map((r) => `| ${r.method} | ${code(r.path)} | ${r.guard} | [${r.file}](../${r.file}) |`);
  return `# Routes

Every route of the app, read from its own router: generated by \`${REFRESH_COMMAND}\`
(\`src/build/routes-table.ts\`), and \`test/foundation/routes-table.test.ts\` fails when this page is
stale. Do not edit it by hand. How the code is laid out: [architecture](architecture.md#2-layout).

- **Method**: \`ALL\` answers every method; \`WS\` is a WebSocket upgrade.
- **Guard**: what the route's guard macros demand before its handler runs
  (\`src/access/access.plugin.ts\`, \`src/workspace/plugin/workspace.plugin.ts\`,
  \`src/workspace/share-links/share-link.plugin.ts\`):
  - \`session\`: the identity provider's signed-in session (cookie \`cairn_session\`, or its value
    as Bearer), not a token;
  - \`scope\`: what an access token or personal access token must hold (a session holds every
    scope of its user); \`or\` names alternatives;
  - \`admin\`: a site administrator; an app's token for it also needs a sign-in with a second
    factor (\`acr\` \`mfa\`) while the site setting \`admin_requires_mfa\` is on;
  - \`team\`: a token needs \`team:<teamId>:<permission>\` for the \`:teamId\` of the path;
  - \`step-up\`: RFC 9470, a token from a sign-in with that \`acr\`, no older than \`max_age\` seconds;
  - \`signed in\`: any of a session, an access token or a personal access token;
  - \`workspace member\`: the workspace's session (cookie \`cairn_ws\`) and membership of the team
    \`:teamId\`; \`workspace session\`: that session alone;
  - \`share link\`: the link in the path, its visitor's email (when the link has an allow-list)
    in the query or the body; \`(image)\` draws an SVG for any valid link;
  - \`public\`: no guard macro. Anyone may call it, or its handler checks a credential of
    another kind itself: client authentication (token, introspection, revocation, PAR, device
    authorization, the 2FA challenges and verification), an access token (userinfo), a session
    (\`/api/auth/session\`, end session), a session or a personal access token (dynamic
    registration) or the registration access token (\`/api/oauth/register/:clientId\`), the app
    config's owners (\`PUT /api/init/config\`), the setup token (\`/api/init/setup\`), the
    workspace's session (\`/api/workspace/me\`, \`/api/workspace/logout\`, realtime), the push
    webhook's signature, \`CAIRN_METRICS_TOKEN\` or loopback (\`/metrics\`).
- **File**: the routes file that declares it.

| Method | Path | Guard | File |
|---|---|---|---|
${lines.join("\n")}
`;
}

if (import.meta.main) {
  writeFileSync(ROUTES_PAGE, renderRoutesPage(await collectRoutes()));
  console.log(`wrote ${relative(process.cwd(), ROUTES_PAGE)}`);
  // The throwaway app's context keeps timers of its own: nothing else is left to do.
  process.exit(0);
}
