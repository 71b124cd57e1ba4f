import type { SearchJob } from "./search/search-index.ts";

/**
 * What the docs site keeps for one app, made at boot: work under way that concurrent requests
 * share, and the file lists of local folders. The cache itself is in the database.
 */
export type DocsRuntime = {
  /** Cache entries being loaded, by entry: concurrent misses of one key share one load. */
  loading: Map<string, Promise<string>>;
  /** Sidebars (every folder's row of a locale) being built, by source and locale: one build at a time. */
  sidebars: Map<string, Promise<Map<string, string>>>;
  /** Search indexes being brought up to date, by source and locale: one job at a time per index. */
  building: Map<string, SearchJob>;
  /** Local folders' file lists, read once (a restart or "refresh now" reads them again). */
  localTrees: Map<string, string[]>;
};

declare module "../context/context.ts" {
  interface AppContext {
    docs: DocsRuntime;
  }
}

export function createDocsRuntime(): DocsRuntime {
  return { loading: new Map(), sidebars: new Map(), building: new Map(), localTrees: new Map() };
}
