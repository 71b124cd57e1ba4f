import { eq } from "drizzle-orm";
import type { AppContext } from "../../context/context.ts";
import { docsSearchBuilds } from "../cache/cache.table.ts";
import { drop } from "../cache/docs-cache.ts";
import { pageUrl } from "../pages/pages.ts";
import type { DocsSourceRow } from "../sources/sources.table.ts";
import { builtAt, SEARCH_INDEX_TTL_MS, startIndexJob } from "./search-index.ts";
import { matchDocuments, removeDocuments } from "./search.repo.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "config" | "secrets" | "outbound" | "log" | "docs">;

const RESULTS = 20;
// Marks around matches that no document text holds, turned into <mark> after escaping.
const OPEN = "\u0001";
const CLOSE = "\u0002";

export type SearchHit = { url: string; title: string; snippet: string };
/** An index being built for the first time, in the background: how many of its pages are in so far. */
export type SearchProgress = { done: number; total: number };

const jobKey = (sourceId: string, locale: string) => `${sourceId}\u0000${locale}`;

/**
 * The (source, locale) index, up to date when it is older than its lifetime: what changed is read
 * while the search waits when it is little, else after the answer (the index answers as it is
 * meanwhile; a first index, as far as it got: the progress). An index that cannot be brought up
 * to date answers as it is; with none at all, RepositoryUnavailable is thrown.
 */
async function ensureIndex(ctx: Ctx, source: DocsSourceRow, locale: string): Promise<SearchProgress | null> {
  const built = await builtAt(ctx, source.id, locale);
  if (built !== null && ctx.clock.now() - built < SEARCH_INDEX_TTL_MS) return null;
  const key = jobKey(source.id, locale);
  let job = ctx.docs.building.get(key);
  if (!job) {
    const started = startIndexJob(ctx, source, locale);
    ctx.docs.building.set(key, started);
    started.finished
      .catch((e) => ctx.log.warn("docs: search index not brought up to date", { source: source.slug, locale, error: String(e) }))
      .finally(() => {
        if (ctx.docs.building.get(key) === started) ctx.docs.building.delete(key);
      });
    job = started;
  }
  try {
    await job.planned;
    if (!job.background) await job.finished;
  } catch (e) {
    if (built === null) throw e;
    return null;
  }
  return built === null && job.background && !job.cancelled ? { done: job.done, total: job.total } : null;
}

/** A person's words, and nothing else of what they typed: no query syntax reaches the index. */
export function searchWords(input: string): string[] {
  return (
    input
      .normalize("NFKC")
      .match(/[\p{L}\p{N}_]+/gu)
      ?.slice(0, 12) ?? []
  );
}

const escapeHtml = (text: string) => Bun.escapeHTML(text);

/**
 * Full-text search of one locale of a source: title and text, best first, with a marked snippet
 * (HTML, escaped); `building` while a first index is still being read.
 */
export async function searchDocs(
  ctx: Ctx,
  source: DocsSourceRow,
  locale: string,
  input: string,
): Promise<{ hits: SearchHit[]; building: SearchProgress | null }> {
  const words = searchWords(input);
  if (words.length === 0) return { hits: [], building: null };
  const building = await ensureIndex(ctx, source, locale);
  const rows = await matchDocuments(ctx.db, source.id, locale, words, { open: OPEN, close: CLOSE }, RESULTS);
  const hits = rows.map((r) => ({
    url: pageUrl(source, locale, r.path),
    title: r.title,
    snippet: escapeHtml(r.snippet).replaceAll(OPEN, "<mark>").replaceAll(CLOSE, "</mark>"),
  }));
  return { hits, building };
}

/** Drops a source's indexes (it was deleted, changed or refreshed by hand), and stops their jobs in this process. */
export async function dropSearch(ctx: Pick<AppContext, "db" | "docs">, sourceId: string): Promise<void> {
  for (const [key, job] of ctx.docs.building)
    if (key.startsWith(`${sourceId}\u0000`)) {
      job.cancelled = true;
      ctx.docs.building.delete(key);
    }
  await removeDocuments(ctx.db, sourceId);
  await drop(ctx, sourceId, ["indexed"]);
  await ctx.db.delete(docsSearchBuilds).where(eq(docsSearchBuilds.sourceId, sourceId)).run();
}
