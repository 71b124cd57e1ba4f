import type { Cluster } from "../../context/cluster.ts";
import { CLUSTER_TOPICS } from "../../shared/cluster-topics.ts";

/**
 * Spec 2 section 8: share-link SVGs are cached for 60 seconds. Keyed by link id, image kind and
 * the query; a link's entries go the moment it changes or is deleted.
 */
const SVG_CACHE_MS = 60_000;
const MAX_ENTRIES = 2_000;

type Entry = { linkId: string; expiresAt: number; svg: string };

export function cacheKey(linkId: string, kind: string, query: Record<string, string | undefined>): string {
  const params = Object.entries(query)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `${linkId}|${kind}|${JSON.stringify(params)}`;
}

/** One app's drawn images, made at boot; a link's change reaches the caches of every worker. */
export function createSvgCache(cluster: Cluster) {
  const entries = new Map<string, Entry>();
  const forget = (linkId: string) => {
    for (const [key, entry] of entries) if (entry.linkId === linkId) entries.delete(key);
  };
  // null: every link (instances on PostgreSQL, when notices may have been missed).
  cluster.on(CLUSTER_TOPICS.svgForget, (linkId) => (linkId === null ? entries.clear() : forget(linkId as string)));
  return {
    get(key: string, now: number): string | undefined {
      const hit = entries.get(key);
      if (!hit) return undefined;
      if (hit.expiresAt > now) return hit.svg;
      entries.delete(key);
      return undefined;
    },
    store(key: string, linkId: string, svg: string, now: number): void {
      entries.delete(key);
      entries.set(key, { linkId, expiresAt: now + SVG_CACHE_MS, svg });
      // A Map keeps insertion order: the oldest entry goes first when the cache is full.
      if (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value as string);
    },
    forgetLink(linkId: string): void {
      forget(linkId);
      cluster.tellOthers(CLUSTER_TOPICS.svgForget, linkId);
    },
  };
}

export type SvgCache = ReturnType<typeof createSvgCache>;
