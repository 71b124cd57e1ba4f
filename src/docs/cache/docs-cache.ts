import { and, count, eq, gt, inArray, isNotNull, ne, sql } from "drizzle-orm";
import type { AppContext } from "../../context/context.ts";
import { deleteBefore, type PurgeStep } from "../../db/batch-delete.ts";
import { changedRows } from "../../db/changes.ts";
import type { Db } from "../../db/client.ts";
import { prepared } from "../../db/prepared.ts";
import { withTx } from "../../db/tx.ts";
import { docsCache } from "./cache.table.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "config">;
export type CacheKind = (typeof docsCache.$inferSelect)["kind"];

/** What is kept per file version rather than for a time: about ten years. */
const KEPT_WHILE_VALID_MS = 3650 * 86_400_000;

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
    case "facts":
    case "indexed":
      // Valid while the file's version holds (file-versions.ts): kept until the file changes or the source is dropped.
      return KEPT_WHILE_VALID_MS;
  }
}

export type CacheKey = { sourceId: string; kind: CacheKind; locale?: string; path?: string };

/** The live entries of a source's kind and locale (and of one path, with `path`), by placeholders. */
const liveWhere = (path: boolean) =>
  and(
    eq(docsCache.sourceId, sql.placeholder("sourceId")),
    eq(docsCache.kind, sql.placeholder("kind")),
    eq(docsCache.locale, sql.placeholder("locale")),
    path ? eq(docsCache.path, sql.placeholder("path")) : undefined,
    gt(docsCache.expiresAt, sql.placeholder("now")),
  );
// Every page view reads a few entries: the statement is prepared once (drizzle would build and prepare it each time).
const liveEntry = (db: Db) => db.select({ value: docsCache.value }).from(docsCache).where(liveWhere(true)).prepare();
// A sidebar's build reads the facts of every file at once.
const liveEntries = (db: Db) => db.select({ path: docsCache.path, value: docsCache.value }).from(docsCache).where(liveWhere(false)).prepare();

// A first sidebar or index keeps thousands of entries at once.
const upsertEntry = (db: Db) =>
  db
    .insert(docsCache)
    .values({
      sourceId: sql.placeholder("sourceId"),
      kind: sql.placeholder("kind"),
      locale: sql.placeholder("locale"),
      path: sql.placeholder("path"),
      value: sql.placeholder("value"),
      expiresAt: sql.placeholder("expiresAt"),
    })
    .onConflictDoUpdate({
      target: [docsCache.sourceId, docsCache.kind, docsCache.locale, docsCache.path],
      set: { value: sql`excluded.value`, expiresAt: sql`excluded.expires_at`, etag: null },
    })
    .prepare();

/** The live value, or null. */
export async function cached(ctx: Ctx, k: CacheKey): Promise<string | null> {
  return (
    (await prepared(ctx.db, liveEntry).get({ sourceId: k.sourceId, kind: k.kind, locale: k.locale ?? "", path: k.path ?? "", now: ctx.clock.now() }))?.value ??
    null
  );
}

/**
 * Cache writes join the turn's shared transaction (db/group-commit.ts): the thousands of entries
 * a first sidebar or index keeps share commits and fsyncs, rather than one fsync each.
 */
const joinBatch = (ctx: Pick<AppContext, "db">) => void ctx.db.$group.join();

export async function store(ctx: Ctx, k: CacheKey, value: string, etag: string | null = null): Promise<void> {
  const lifetime = lifetimeMs(ctx, k.kind);
  // DOCS_HTML_TTL_SECONDS=0: nothing to keep.
  if (lifetime <= 0) return;
  const expiresAt = ctx.clock.now() + lifetime;
  joinBatch(ctx);
  await ctx.db
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
  const hit = await cached(ctx, k);
  if (hit !== null) return hit;
  const id = `${k.sourceId}\u0000${k.kind}\u0000${k.locale ?? ""}\u0000${k.path ?? ""}`;
  const pending = ctx.docs.loading.get(id);
  if (pending) return pending;
  // Registered before its first await, so a concurrent miss of this key finds it.
  const work = (async () => {
    const stale = await ctx.db
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
    const loaded = await load(stale?.etag ?? null);
    const fresh = loaded === "unchanged" && stale ? { value: stale.value, etag: stale.etag } : loaded === "unchanged" ? null : loaded;
    if (fresh === null) throw new Error("the hosting service answered 304 to a request without an ETag");
    try {
      await store(ctx, k, fresh.value, fresh.etag);
    } catch (e) {
      // The source was removed meanwhile (its rows cascade): answer, keep nothing.
      ctx.log.warn("docs: cache entry not kept", { kind: k.kind, error: String(e) });
    }
    return fresh.value;
  })().finally(() => ctx.docs.loading.delete(id));
  ctx.docs.loading.set(id, work);
  return work;
}

/** The cached value, or what `load` gives (then kept). */
export function through(ctx: Ctx & Pick<AppContext, "log" | "docs">, k: CacheKey, load: () => Promise<string>): Promise<string> {
  return revalidated(ctx, k, async () => ({ value: await load(), etag: null }));
}

/** Drops entries of a source: of the given kinds, and of the given paths (any locale) when named. Answers how many went. */
export async function drop(ctx: Pick<AppContext, "db">, sourceId: string, kinds: CacheKind[], paths?: string[]): Promise<number> {
  if (paths !== undefined && paths.length === 0) return 0;
  const where = and(eq(docsCache.sourceId, sourceId), inArray(docsCache.kind, kinds), paths === undefined ? undefined : inArray(docsCache.path, paths));
  return changedRows(await ctx.db.delete(docsCache).where(where).run());
}

/**
 * Everything a source has cached ("refresh now"), but what the search index holds of each page:
 * that goes with the index itself (dropSearch), which a push does not drop (spec 3 section 4.4).
 */
export async function dropSource(ctx: Pick<AppContext, "db">, sourceId: string): Promise<number> {
  return changedRows(
    await ctx.db
      .delete(docsCache)
      .where(and(eq(docsCache.sourceId, sourceId), ne(docsCache.kind, "indexed")))
      .run(),
  );
}

/** The live entries of a kind in a locale, by path: what is kept per file, read at once. */
export async function entriesOf(ctx: Pick<AppContext, "db" | "clock">, sourceId: string, kind: CacheKind, locale = ""): Promise<Map<string, string>> {
  const rows = await prepared(ctx.db, liveEntries).all({ sourceId, kind, locale, now: ctx.clock.now() });
  return new Map(rows.map((r) => [r.path, r.value]));
}

/** Whether a source holds any live entry of a kind in a locale. */
export async function hasEntries(ctx: Pick<AppContext, "db" | "clock">, sourceId: string, kind: CacheKind, locale = ""): Promise<boolean> {
  const row = await ctx.db
    .select({ path: docsCache.path })
    .from(docsCache)
    .where(and(eq(docsCache.sourceId, sourceId), eq(docsCache.kind, kind), eq(docsCache.locale, locale), gt(docsCache.expiresAt, ctx.clock.now())))
    .limit(1)
    .get();
  return row !== undefined;
}

/**
 * Keeps entries by path (one transaction): with `replace`, instead of every entry of that kind
 * and locale. They share one expiry, so a set written together (a locale's sidebar rows) is live
 * or expired as one.
 */
export async function storeEntries(
  ctx: Ctx,
  sourceId: string,
  kind: CacheKind,
  locale: string,
  rows: Iterable<[string, string]>,
  replace = false,
): Promise<void> {
  const expiresAt = ctx.clock.now() + lifetimeMs(ctx, kind);
  joinBatch(ctx);
  await withTx(ctx.db, async () => {
    if (replace)
      await ctx.db
        .delete(docsCache)
        .where(and(eq(docsCache.sourceId, sourceId), eq(docsCache.kind, kind), eq(docsCache.locale, locale)))
        .run();
    const upsert = prepared(ctx.db, upsertEntry);
    for (const [path, value] of rows) await upsert.run({ sourceId, kind, locale, path, value, expiresAt });
  });
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

/** The purge of entries expired a day ago (the purge job runs it, a batch at a time: context/purges.ts). */
export const expiredEntriesPurge = (db: Db): PurgeStep => deleteBefore(db, docsCache, docsCache.expiresAt, KEEP_EXPIRED_MS);
