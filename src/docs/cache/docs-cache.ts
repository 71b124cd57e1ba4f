import { and, count, eq, gt, inArray, isNotNull, lt, sql } from "drizzle-orm";
import type { AppContext } from "../../context/context.ts";
import { changedRows } from "../../db/changes.ts";
import type { Db } from "../../db/client.ts";
import { prepared } from "../../db/prepared.ts";
import { docsCache } from "./cache.table.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "config">;
export type CacheKind = (typeof docsCache.$inferSelect)["kind"];

/** Spec 3 section 8 and what follows from it: how long each kind of entry lives (ms). */
export function lifetimeMs(ctx: Pick<AppContext, "config">, kind: CacheKind): number {
  switch (kind) {
    case "raw":
    case "tree":
    case "sidebar":
    case "file":
      return 5 * 60_000;
    case "html":
      return ctx.config.docsHtmlTtlSeconds * 1000;
    case "meta":
    case "translation":
      // Dropped by the push that changes them; the lifetime only bounds a missed delivery.
      return 6 * 3600_000;
  }
}

export type CacheKey = { sourceId: string; kind: CacheKind; locale?: string; path?: string };

// Every page view reads a few entries: the statement is prepared once (drizzle would build and prepare it each time).
const liveEntry = (db: Db) =>
  db
    .select({ value: docsCache.value })
    .from(docsCache)
    .where(
      and(
        eq(docsCache.sourceId, sql.placeholder("sourceId")),
        eq(docsCache.kind, sql.placeholder("kind")),
        eq(docsCache.locale, sql.placeholder("locale")),
        eq(docsCache.path, sql.placeholder("path")),
        gt(docsCache.expiresAt, sql.placeholder("now")),
      ),
    )
    .prepare();

/** The live value, or null. */
export function cached(ctx: Ctx, k: CacheKey): string | null {
  return (
    prepared(ctx.db, liveEntry).get({ sourceId: k.sourceId, kind: k.kind, locale: k.locale ?? "", path: k.path ?? "", now: ctx.clock.now() })?.value ?? null
  );
}

export function store(ctx: Ctx, k: CacheKey, value: string, etag: string | null = null): void {
  const lifetime = lifetimeMs(ctx, k.kind);
  // DOCS_HTML_TTL_SECONDS=0: nothing to keep.
  if (lifetime <= 0) return;
  const expiresAt = ctx.clock.now() + lifetime;
  ctx.db
    .insert(docsCache)
    .values({ sourceId: k.sourceId, kind: k.kind, locale: k.locale ?? "", path: k.path ?? "", value, expiresAt, etag })
    .onConflictDoUpdate({ target: [docsCache.sourceId, docsCache.kind, docsCache.locale, docsCache.path], set: { value, expiresAt, etag } })
    .run();
}

/** What a loader found: a new value (with the ETag it came with), or "unchanged" (the hosting service answered 304). */
export type Loaded = { value: string; etag: string | null } | "unchanged";

/**
 * The cached value, or what `load` gives (then kept); a load that throws keeps nothing. An expired
 * entry that has an ETag is handed to `load`, which may answer "unchanged": the entry then lives
 * on (GitHub does not count a 304 against the rate limit). Concurrent misses of one key in this
 * app share one load (ctx.docs): a burst of cold views makes one request to the hosting service.
 */
export async function revalidated(ctx: Ctx & Pick<AppContext, "log" | "docs">, k: CacheKey, load: (etag: string | null) => Promise<Loaded>): Promise<string> {
  const hit = cached(ctx, k);
  if (hit !== null) return hit;
  const id = `${k.sourceId}\u0000${k.kind}\u0000${k.locale ?? ""}\u0000${k.path ?? ""}`;
  const pending = ctx.docs.loading.get(id);
  if (pending) return pending;
  const stale = ctx.db
    .select({ value: docsCache.value, etag: docsCache.etag })
    .from(docsCache)
    .where(
      and(
        eq(docsCache.sourceId, k.sourceId),
        eq(docsCache.kind, k.kind),
        eq(docsCache.locale, k.locale ?? ""),
        eq(docsCache.path, k.path ?? ""),
        isNotNull(docsCache.etag),
      ),
    )
    .get();
  const work = load(stale?.etag ?? null)
    .then((loaded) => {
      const fresh = loaded === "unchanged" && stale ? { value: stale.value, etag: stale.etag } : loaded === "unchanged" ? null : loaded;
      if (fresh === null) throw new Error("the hosting service answered 304 to a request without an ETag");
      try {
        store(ctx, k, fresh.value, fresh.etag);
      } catch (e) {
        // The source was removed meanwhile (its rows cascade): answer, keep nothing.
        ctx.log.warn("docs: cache entry not kept", { kind: k.kind, error: String(e) });
      }
      return fresh.value;
    })
    .finally(() => ctx.docs.loading.delete(id));
  ctx.docs.loading.set(id, work);
  return work;
}

/** The cached value, or what `load` gives (then kept). */
export function through(ctx: Ctx & Pick<AppContext, "log" | "docs">, k: CacheKey, load: () => Promise<string>): Promise<string> {
  return revalidated(ctx, k, async () => ({ value: await load(), etag: null }));
}

/** Drops entries of a source: of the given kinds, and of the given paths (any locale) when named. Answers how many went. */
export function drop(ctx: Pick<AppContext, "db">, sourceId: string, kinds: CacheKind[], paths?: string[]): number {
  if (paths !== undefined && paths.length === 0) return 0;
  const where = and(eq(docsCache.sourceId, sourceId), inArray(docsCache.kind, kinds), paths === undefined ? undefined : inArray(docsCache.path, paths));
  return changedRows(ctx.db.delete(docsCache).where(where).run());
}

/** Everything a source has cached ("refresh now"). */
export function dropSource(ctx: Pick<AppContext, "db">, sourceId: string): number {
  return changedRows(ctx.db.delete(docsCache).where(eq(docsCache.sourceId, sourceId)).run());
}

/** Live entries and their bytes per source and kind, for the admin page (expired ones kept for revalidation are not counted). */
export function cacheSizes(ctx: Pick<AppContext, "db" | "clock">, sourceId: string) {
  return ctx.db
    .select({ kind: docsCache.kind, entries: count(), bytes: sql<number>`coalesce(sum(length(${docsCache.value})), 0)` })
    .from(docsCache)
    .where(and(eq(docsCache.sourceId, sourceId), gt(docsCache.expiresAt, ctx.clock.now())))
    .groupBy(docsCache.kind)
    .all();
}

/** Expired entries stay a day, to be revalidated with their ETag rather than fetched whole. */
const KEEP_EXPIRED_MS = 86_400_000;

export function purgeExpired(ctx: Pick<AppContext, "db">, now: number): void {
  ctx.db
    .delete(docsCache)
    .where(lt(docsCache.expiresAt, now - KEEP_EXPIRED_MS))
    .run();
}
