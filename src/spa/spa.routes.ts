import { Elysia } from "elysia";
import { isSpaRoute } from "../contract/spa-routes.ts";
import { notFound } from "../shared/errors.ts";
import { errorBody } from "../shared/http-errors.ts";
import { API_CSP, SPA_CSP } from "../shared/security-headers.ts";
import { onFirstUse } from "../shared/on-first-use.ts";
import { type Asset, spaAssets } from "./spa.assets.ts";
import { type ShellHints, shellHead } from "./shell-hints.ts";

const NOT_BUILT = "The web app is not built. Run `npm run build:web` (npm start does it for you).\n";

function serve(asset: Asset, request: Request, csp: string): Response {
  const headers = {
    "content-type": asset.type,
    etag: asset.etag,
    "cache-control": asset.immutable ? "public, max-age=31536000, immutable" : "no-cache",
    "content-security-policy": csp,
  };
  if (request.headers.get("if-none-match") === asset.etag) return new Response(null, { status: 304, headers });
  return new Response(asset.body, { headers });
}

/**
 * The app shell as it is sent: the address this instance is configured as (opened at any other,
 * it explains that instead of failing at the first write) and what the request's cookies say of
 * its sessions. The hints differ per request, so the shell is never stored by a cache.
 */
function shellOf(index: Asset, issuer: string) {
  const text = new TextDecoder().decode(index.body);
  const variants = new Map<string, Uint8Array<ArrayBuffer>>();
  return (hints: ShellHints): Uint8Array<ArrayBuffer> => {
    const key = `${hints.signed_in}:${hints.workspace}`;
    let body = variants.get(key);
    if (!body) {
      body = new TextEncoder().encode(text.replace("</head>", `${shellHead(issuer, hints)}</head>`));
      variants.set(key, body);
    }
    return body;
  };
}

/** Without a way to read the cookies (a bare test app), the shell says nothing is known: the SPA asks. */
const UNKNOWN = (): ShellHints => ({ signed_in: null, workspace: null });

/**
 * Everything that is not an API route: a file of the built SPA, or the SPA's index.html so the
 * client-side router can answer deep links, 404 for a path that is none of its pages (its
 * not-found page then shows). Unknown `/api` paths are a JSON 404 instead. `pageCsp` widens the
 * policy for one page that needs it (the 2FA page's captcha widget); `hints` reads the
 * request's session cookies (shell-hints.ts).
 */
export function spaRoutes(
  issuer: string,
  assets: () => ReadonlyMap<string, Asset> = spaAssets,
  pageCsp: (path: string) => string | null | Promise<string | null> = () => null,
  hints: (request: Request) => ShellHints = UNKNOWN,
) {
  const files = onFirstUse(assets);
  const shell = onFirstUse(() => {
    const index = files().get("/index.html");
    return index && shellOf(index, issuer);
  });
  // Answered here, not thrown: a scan of unknown paths is not a refusal worth a log line each.
  const missing = (set: { status?: number | string }) => {
    set.status = 404;
    return errorBody(notFound(), "spec");
  };
  return new Elysia({ name: "spa" }).get("/*", async ({ request, path, set }) => {
    if (path === "/api" || path.startsWith("/api/")) return missing(set);
    const file = files().get(path);
    if (file && path !== "/index.html") return serve(file, request, API_CSP);
    // A missing file (it has an extension) is a 404, not the app shell.
    if (/\.[A-Za-z0-9]+$/.test(path)) return missing(set);
    const page = shell();
    if (!page) return new Response(NOT_BUILT, { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
    return new Response(page(hints(request)), {
      status: path === "/index.html" || isSpaRoute(path) ? 200 : 404,
      headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store", "content-security-policy": (await pageCsp(path)) ?? SPA_CSP },
    });
  });
}
