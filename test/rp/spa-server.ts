import { dirname, join } from "node:path";

const JS = { "content-type": "text/javascript; charset=utf-8" };
const HTML = { "content-type": "text/html; charset=utf-8" };

/**
 * A static single-page app on http://127.0.0.1:`port`: oidc-client-ts.html at / and /callback, the
 * catalog's filled userManager.ts as /userManager.js (plain JavaScript as written), and the
 * package's ESM build with its one dependency from node_modules.
 */
export function startSpa(port: number, userManagerSource: string) {
  const library = Bun.resolveSync("oidc-client-ts", import.meta.dir);
  const files: Record<string, string> = {
    "/lib/oidc-client-ts.js": library,
    "/lib/jwt-decode.js": Bun.resolveSync("jwt-decode", dirname(library)),
  };
  const server = Bun.serve({
    port,
    hostname: "127.0.0.1",
    fetch(request) {
      const { pathname } = new URL(request.url);
      if (pathname === "/" || pathname === "/callback") return new Response(Bun.file(join(import.meta.dir, "oidc-client-ts.html")), { headers: HTML });
      if (pathname === "/userManager.js") return new Response(userManagerSource, { headers: JS });
      const file = files[pathname];
      return file ? new Response(Bun.file(file), { headers: JS }) : new Response("Not found", { status: 404 });
    },
  });
  return { url: `http://127.0.0.1:${port}`, stop: () => server.stop(true) };
}
