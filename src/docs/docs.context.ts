/**
 * What the docs site keeps for one app, made at boot: work under way that concurrent requests
 * share, and the file lists of local folders. The cache itself is in the database.
 */
export type DocsRuntime = {
  /** Cache entries being loaded, by entry: concurrent misses of one key share one load. */
  loading: Map<string, Promise<string>>;
  /** Search indexes being rebuilt, by source and locale: one rebuild at a time per index. */
  building: Map<string, Promise<void>>;
  /** Local folders' file lists, read once (a restart or "refresh now" reads them again). */
  localTrees: Map<string, string[]>;
};

declare module "../context/context.ts" {
  interface AppContext {
    docs: DocsRuntime;
  }
}

export function createDocsRuntime(): DocsRuntime {
  return { loading: new Map(), building: new Map(), localTrees: new Map() };
}
