import { renderNotFoundBadge } from "./badge.ts";
import { BADGE_PARAMS, knownValues } from "./svg-input.ts";
import { loadSvgLibraries } from "./svg-libraries.ts";

/** Spec 2 section 8: an image is cached 60 s by clients too. */
export const SVG_HEADERS = { "content-type": "image/svg+xml; charset=utf-8", "cache-control": "public, max-age=60" };

/**
 * Spec 2 section 4.4: an unknown token or a deleted set answers a 404 badge reading "not found"
 * (an image, as the page embedding it expects), drawn with the request's badge parameters and
 * never cached.
 */
export async function notFoundImage(rawQuery: Record<string, unknown>): Promise<Response> {
  await loadSvgLibraries();
  return new Response(renderNotFoundBadge(knownValues(rawQuery, BADGE_PARAMS)), {
    status: 404,
    headers: { ...SVG_HEADERS, "cache-control": "no-store" },
  });
}
