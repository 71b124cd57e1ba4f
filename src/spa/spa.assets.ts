import { embedFolder } from "../shared/embed.macro.ts" with { type: "macro" };
import { onFirstUse } from "../shared/on-first-use.ts";

/**
 * The built SPA (`web/dist`), carried inside the executable by a bundle-time macro. The macro's
 * text sits inside a function, so it becomes strings only when that first runs: an instance that
 * only answers tokens never holds the app's 400 kB (issue 12, idle memory).
 */
const embedded = (): Record<string, string> => embedFolder("web/dist");

const TYPES: Record<string, string> = {
  html: "text/html; charset=utf-8",
  js: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
  svg: "image/svg+xml",
  png: "image/png",
  ico: "image/x-icon",
  json: "application/json",
  webmanifest: "application/manifest+json",
  woff2: "font/woff2",
  txt: "text/plain; charset=utf-8",
  map: "application/json",
};

export type Asset = { body: Uint8Array<ArrayBuffer>; type: string; etag: string; immutable: boolean };

// Bun's bundler names chunks `name-<hash>.ext`: those never change and may be cached for good.
const HASHED = /-[a-z0-9]{8}\.[a-z0-9]+$/;

function load(): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  for (const [path, b64] of Object.entries(embedded())) {
    if (path.split("/").some((part) => part.startsWith("."))) continue; // build stamps, never served
    const body = new Uint8Array(Buffer.from(b64, "base64"));
    const ext = path.slice(path.lastIndexOf(".") + 1).toLowerCase();
    const etag = `"${Bun.hash(body).toString(36)}"`;
    assets.set(`/${path}`, { body, type: TYPES[ext] ?? "application/octet-stream", etag, immutable: HASHED.test(path) });
  }
  return assets;
}

/** The SPA's files by path, decoded with the first request for one of them. */
export const spaAssets: () => ReadonlyMap<string, Asset> = onFirstUse(load);
