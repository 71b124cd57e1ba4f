import { and, eq } from "drizzle-orm";
import type { AppContext } from "../../context/context.ts";
import { withTx } from "../../db/tx.ts";
import { docsSearchBuilds } from "../cache/cache.table.ts";
import { renderer } from "../render/renderer.ts";
import { repositoryOf } from "../repository/repository.ts";
import type { DocsSourceRow } from "../sources/sources.table.ts";
import { pagesOf, pageUrl } from "../pages/pages.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "config" | "secrets" | "outbound" | "log" | "docs">;

/** Spec 3 section 8: a full-text index lives about 20 minutes (a push does not drop it). */
export const SEARCH_INDEX_TTL_MS = 20 * 60_000;
const RESULTS = 20;
// Marks around matches that no document text holds, turned into <mark> after escaping.
const OPEN = "\u0001";
const CLOSE = "\u0002";

export type SearchHit = { url: string; title: string; snippet: string };

/** Rebuilds the (source, locale) index from every page; one rebuild at a time per index. */
async function ensureIndex(ctx: Ctx, source: DocsSourceRow, locale: string): Promise<void> {
  const built = ctx.db
    .select({ at: docsSearchBuilds.builtAt })
    .from(docsSearchBuilds)
    .where(and(eq(docsSearchBuilds.sourceId, source.id), eq(docsSearchBuilds.locale, locale)))
    .get();
  if (built && ctx.clock.now() - built.at < SEARCH_INDEX_TTL_MS) return;
  const key = `${source.id}:${locale}`;
  const running = ctx.docs.building.get(key);
  if (running) return running;
  const work = (async () => {
    const repo = repositoryOf(ctx, source);
    const pages = pagesOf(source, await repo.files(), locale);
    const rows: [string, string, string][] = [];
    const { renderSafely } = await renderer();
    for (const page of pages.values()) {
      const rendered = renderSafely(ctx.log, await repo.text(page.repoPath), page.repoPath, { link: (h) => h, image: (s) => s, diagram: null });
      // Drafts are not published, so not found either.
      if (rendered.frontmatter.draft === true) continue;
      // The snippet marks are control characters: a document's own are not kept.
      rows.push([page.pagePath, rendered.title, rendered.text.replace(/[\u0001\u0002]/g, "")]);
    }
    const client = ctx.db.$client;
    withTx(ctx.db, () => {
      client.prepare("DELETE FROM docs_search WHERE source_id = ? AND locale = ?").run(source.id, locale);
      const insert = client.prepare("INSERT INTO docs_search (source_id, locale, path, title, body) VALUES (?, ?, ?, ?, ?)");
      for (const [path, title, body] of rows) insert.run(source.id, locale, path, title, body);
      ctx.db
        .insert(docsSearchBuilds)
        .values({ sourceId: source.id, locale, builtAt: ctx.clock.now() })
        .onConflictDoUpdate({ target: [docsSearchBuilds.sourceId, docsSearchBuilds.locale], set: { builtAt: ctx.clock.now() } })
        .run();
    });
  })().finally(() => ctx.docs.building.delete(key));
  ctx.docs.building.set(key, work);
  return work;
}

/** A person's words as an FTS5 query: each word a quoted string (no operator syntax), the last one a prefix. */
export function ftsQuery(input: string): string | null {
  const words =
    input
      .normalize("NFKC")
      .match(/[\p{L}\p{N}_]+/gu)
      ?.slice(0, 12) ?? [];
  if (words.length === 0) return null;
  return words.map((w, i) => `"${w.replaceAll('"', '""')}"${i === words.length - 1 ? "*" : ""}`).join(" ");
}

const escapeHtml = (text: string) => Bun.escapeHTML(text);

/** Full-text search of one locale of a source: title and text, best first, with a marked snippet (HTML, escaped). */
export async function searchDocs(ctx: Ctx, source: DocsSourceRow, locale: string, input: string): Promise<SearchHit[]> {
  const query = ftsQuery(input);
  if (query === null) return [];
  await ensureIndex(ctx, source, locale);
  const rows = ctx.db.$client
    .prepare<{ path: string; title: string; snippet: string }, [string, string, string, string, string, number]>(
      `SELECT path, title, snippet(docs_search, 4, ?, ?, '…', 16) AS snippet FROM docs_search
       WHERE docs_search MATCH ? AND source_id = ? AND locale = ? ORDER BY bm25(docs_search, 0, 0, 0, 5, 1) LIMIT ?`,
    )
    .all(OPEN, CLOSE, query, source.id, locale, RESULTS);
  return rows.map((r) => ({
    url: pageUrl(source, locale, r.path),
    title: r.title,
    snippet: escapeHtml(r.snippet).replaceAll(OPEN, "<mark>").replaceAll(CLOSE, "</mark>"),
  }));
}

/** Drops a source's indexes (it was deleted or refreshed by hand). */
export function dropSearch(ctx: Pick<AppContext, "db">, sourceId: string): void {
  ctx.db.$client.prepare("DELETE FROM docs_search WHERE source_id = ?").run(sourceId);
  ctx.db.delete(docsSearchBuilds).where(eq(docsSearchBuilds.sourceId, sourceId)).run();
}
