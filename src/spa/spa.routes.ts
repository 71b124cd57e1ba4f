import { Elysia } from "elysia";
import { notFound } from "../shared/errors.ts";
import { errorBody } from "../shared/http-errors.ts";
import { API_CSP, SPA_CSP } from "../shared/security-headers.ts";
import { onFirstUse } from "../shared/on-first-use.ts";
import { type Asset, spaAssets } from "./spa.assets.ts";

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
 * The app shell, told the address this instance is configured as: opened at any other address
 * (another host name, the LAN IP) it explains that instead of failing at the first write.
 */
function withIssuer(index: Asset, issuer: string): Asset {
  const escaped = issuer.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const body = new TextDecoder().decode(index.body).replace("</head>", `<meta name="cairn-issuer" content="${escaped}" /></head>`);
  const bytes = new TextEncoder().encode(body);
  return { ...index, body: bytes, etag: `"${Bun.hash(bytes).toString(36)}"` };
}

/**
 * Everything that is not an API route: a file of the built SPA, or the SPA's index.html so the
 * client-side router can answer deep links. Unknown `/api` paths are a JSON 404 instead.
 * `pageCsp` widens the policy for one page that needs it (the 2FA page's captcha widget).
 */
export function spaRoutes(issuer: string, assets: () => ReadonlyMap<string, Asset> = spaAssets, pageCsp: (path: string) => string | null = () => null) {
  const files = onFirstUse(assets);
  const index = onFirstUse(() => {
    const shell = files().get("/index.html");
    return shell && withIssuer(shell, issuer);
  });
  // Answered here, not thrown: a scan of unknown paths is not a refusal worth a log line each.
  const missing = (set: { status?: number | string }) => {
    set.status = 404;
    return errorBody(notFound(), "spec");
  };
  return new Elysia({ name: "spa" }).get("/*", ({ request, path, set }) => {
    if (path === "/api" || path.startsWith("/api/")) return missing(set);
    const file = files().get(path);
    if (file && path !== "/index.html") return serve(file, request, API_CSP);
    // A missing file (it has an extension) is a 404, not the app shell.
    if (/\.[A-Za-z0-9]+$/.test(path)) return missing(set);
    const shell = index();
    if (!shell) return new Response(NOT_BUILT, { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
    return serve(shell, request, pageCsp(path) ?? SPA_CSP);
  });
}
