import { type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";

/*
 * docs_search, the docs site's full-text index, has no drizzle builder: its SQL, per dialect.
 * SQLite: an FTS5 table (migration 0018). PostgreSQL: a table whose `document` tsvector
 * (title weighted A, body B) PostgreSQL keeps up to date, through the cairn_docs configuration
 * ('simple' after unaccent: migrations-pg 0002 and 0005), with a GIN index.
 */

/** A page found: the snippet marks matched words with `open` and `close`, and starts or ends with "…" where the text goes on. */
export type Match = { path: string; title: string; snippet: string };
export type Marks = { open: string; close: string };
export type Indexable = { sourceId: string; locale: string; path: string; title: string; body: string };

/** The snippet's length in words (FTS5 snippet()'s tokens), and what stands for the text left out. */
const SNIPPET_WORDS = 16;
const ELLIPSIS = "…";

/** Adds a page; its row id, to remove it by. */
export async function insertDocument(db: Db, doc: Indexable): Promise<number> {
  const { sourceId, locale, path, title, body } = doc;
  const values = sql`(source_id, locale, path, title, body) VALUES (${sourceId}, ${locale}, ${path}, ${title}, ${body})`;
  // FTS5 takes no RETURNING (SQLite: not on virtual tables).
  if (db.$dialect === "sqlite") return Number((await db.run(sql`INSERT INTO docs_search ${values}`)).lastInsertRowid);
  const [row] = await db.all<{ rowid: number }>(sql`INSERT INTO docs_search ${values} RETURNING rowid`);
  return Number(row?.rowid);
}

export async function removeDocument(db: Db, rowid: number): Promise<void> {
  await db.run(sql`DELETE FROM docs_search WHERE rowid = ${rowid}`);
}

/** Removes a source's pages, or one language's of them. */
export async function removeDocuments(db: Db, sourceId: string, locale?: string): Promise<void> {
  await db.run(sql`DELETE FROM docs_search WHERE source_id = ${sourceId}${locale === undefined ? sql`` : sql` AND locale = ${locale}`}`);
}

/**
 * The pages of one (source, locale) holding every word, the last one as a prefix, best first: a
 * match in the title counts 5 times one in the text. `words` are letters, digits and `_` only.
 */
export async function matchDocuments(db: Db, sourceId: string, locale: string, words: string[], marks: Marks, limit: number): Promise<Match[]> {
  if (db.$dialect === "sqlite") {
    // Each word a quoted string (no operator syntax), the last one a prefix.
    const query = words.map((w, i) => `"${w.replaceAll('"', '""')}"${i === words.length - 1 ? "*" : ""}`).join(" ");
    return await db.all<Match>(
      sql`SELECT path, title, snippet(docs_search, 4, ${marks.open}, ${marks.close}, ${ELLIPSIS}, ${SNIPPET_WORDS}) AS snippet FROM docs_search
         WHERE docs_search MATCH ${query} AND source_id = ${sourceId} AND locale = ${locale} ORDER BY bm25(docs_search, 0, 0, 0, 5, 1) LIMIT ${limit}`,
    );
  }
  return await matchOnPostgres(db, sourceId, locale, words, marks, limit);
}

/**
 * PostgreSQL's counterpart of the FTS5 query: to_tsquery of quoted words (`'quok':*` a prefix),
 * ts_rank with the title weighted 5 times the text and divided by 1 + log(length), as bm25 lowers
 * long documents (ties by path: no order otherwise), and ts_headline's best fragment of the text,
 * as many words as FTS5's snippet. What FTS5 adds around its fragment, ts_headline does not: "…"
 * where the text has words before or after it, else the text's own start or end (punctuation).
 */
async function matchOnPostgres(db: Db, sourceId: string, locale: string, words: string[], marks: Marks, limit: number): Promise<Match[]> {
  const query = words.map((w, i) => `'${w.replaceAll("'", "''")}'${i === words.length - 1 ? ":*" : ""}`).join(" & ");
  const options = `StartSel="${marks.open}", StopSel="${marks.close}", MaxWords=${SNIPPET_WORDS}, MinWords=${SNIPPET_WORDS - 1}, MaxFragments=1`;
  const unlessWords = (text: SQL) => sql`CASE WHEN length(to_tsvector('simple', ${text})) = 0 THEN ${text} END`;
  const rows = await db.all<{ path: string; title: string; snippet: string; lead: string | null; trail: string | null }>(
    sql`SELECT hit.path, hit.title, h.snippet, ${unlessWords(sql`around.head`)} AS lead, ${unlessWords(sql`around.tail`)} AS trail
       FROM (
         SELECT path, title, body, q, ts_rank('{0, 0, 0.2, 1}', document, q, 1) AS rank
         FROM docs_search, to_tsquery('cairn_docs', ${query}) AS q
         WHERE document @@ q AND source_id = ${sourceId} AND locale = ${locale}
         ORDER BY rank DESC, path LIMIT ${limit}
       ) AS hit
       CROSS JOIN LATERAL (SELECT ts_headline('cairn_docs', hit.body, hit.q, ${options}) AS snippet) AS h
       CROSS JOIN LATERAL (SELECT replace(replace(h.snippet, ${marks.open}, ''), ${marks.close}, '') AS plain) AS p
       CROSS JOIN LATERAL (
         SELECT left(hit.body, strpos(hit.body, p.plain) - 1) AS head, substr(hit.body, strpos(hit.body, p.plain) + length(p.plain)) AS tail
       ) AS around
       ORDER BY hit.rank DESC, hit.path`,
  );
  return rows.map((r) => ({ path: r.path, title: r.title, snippet: `${r.lead ?? ELLIPSIS}${r.snippet}${r.trail ?? ELLIPSIS}` }));
}
