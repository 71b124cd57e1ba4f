import { and, eq } from "drizzle-orm";
import type { AppContext } from "../../context/context.ts";
import { withTx } from "../../db/tx.ts";
import { docsSearchBuilds } from "../cache/cache.table.ts";
import { cached, drop, entriesOf, hasEntries, storeEntries } from "../cache/docs-cache.ts";
import { type PageRef, pagesOf } from "../pages/pages.ts";
import { renderer } from "../render/renderer.ts";
import { type Repository, RepositoryUnavailable, repositoryOf } from "../repository/repository.ts";
import type { DocsSourceRow } from "../sources/sources.table.ts";
import { insertDocument, removeDocument, removeDocuments } from "./search.repo.ts";

/** A search index being brought up to date (startIndexJob): how far it is, and whether it was dropped meanwhile. */
export type SearchJob = {
  /** The documents it reads, and how many of them are done. */
  total: number;
  done: number;
  /** Set by dropSearch: the job stops before its next slice. */
  cancelled: boolean;
  /** Settles once it knows what to read (the tree against what the index holds). */
  planned: Promise<void>;
  /** Settles once every document is in the index. */
  finished: Promise<void>;
  /** Too many documents to read while a search waits: it goes on after the answer, in slices. */
  background: boolean;
};

type Ctx = Pick<AppContext, "db" | "clock" | "config" | "secrets" | "outbound" | "log" | "docs">;

/** Spec 3 section 8: a full-text index lives about 20 minutes (a push does not drop it); then it is brought up to date. */
export const SEARCH_INDEX_TTL_MS = 20 * 60_000;
/** Documents read while a search waits; more are read after its answer, a slice at a time. */
export const READ_WHILE_WAITING = 24;
/** Documents read (at once) and written (in one transaction) per slice. */
const SLICE = 8;

/** What the index holds of a page (an `indexed` cache row): the file and version it was read from, and its FTS row (null: a draft, not searchable). */
type Indexed = { v: string; r: number | null };
type Doc = { ref: PageRef; v: string; title: string; body: string; draft: boolean };

const versionKey = (repoPath: string, version: string) => `${repoPath}@${version}`;

async function indexedNow(ctx: Pick<AppContext, "db" | "clock" | "config">, sourceId: string, locale: string, path: string): Promise<Indexed | null> {
  const json = await cached(ctx, { sourceId, kind: "indexed", locale, path });
  return json === null ? null : (JSON.parse(json) as Indexed);
}
const yieldTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export async function builtAt(ctx: Pick<AppContext, "db">, sourceId: string, locale: string): Promise<number | null> {
  return (
    (
      await ctx.db
        .select({ at: docsSearchBuilds.builtAt })
        .from(docsSearchBuilds)
        .where(and(eq(docsSearchBuilds.sourceId, sourceId), eq(docsSearchBuilds.locale, locale)))
        .get()
    )?.at ?? null
  );
}

/**
 * What to read: each page whose file or version differs from what the index holds (a page's
 * version unknown: read, and compared once read), and what the index holds of pages gone.
 */
async function planOf(ctx: Ctx, source: DocsSourceRow, locale: string, repo: Repository) {
  const tree = await repo.tree();
  const versions = new Map(tree.map((e) => [e.path, e.version]));
  const pages = pagesOf(
    source,
    tree.map((e) => e.path),
    locale,
  );
  const indexed = new Map([...(await entriesOf(ctx, source.id, "indexed", locale))].map(([path, json]) => [path, JSON.parse(json) as Indexed]));
  const read = [...pages.values()].filter((page) => {
    const version = versions.get(page.repoPath) ?? null;
    return version === null || indexed.get(page.pagePath)?.v !== versionKey(page.repoPath, version);
  });
  const gone = [...indexed.keys()].filter((path) => !pages.has(path));
  return { read, gone, empty: indexed.size === 0 };
}

/**
 * Writes documents and removals in one transaction, each checked against what the index holds
 * now (another worker may have written it meanwhile): a document already at its version is left,
 * an older one replaced. An index with nothing recorded is emptied first (rows an older Cairn left).
 */
async function writeDocs(ctx: Ctx, source: DocsSourceRow, locale: string, docs: Doc[], gone: string[], empty: boolean): Promise<void> {
  await withTx(ctx.db, async () => {
    if (empty && !(await hasEntries(ctx, source.id, "indexed", locale))) await removeDocuments(ctx.db, source.id, locale);
    const now = (path: string) => indexedNow(ctx, source.id, locale, path);
    const remove = (r: number) => removeDocument(ctx.db, r);
    const insert = (doc: Doc) => insertDocument(ctx.db, { sourceId: source.id, locale, path: doc.ref.pagePath, title: doc.title, body: doc.body });
    const kept: [string, string][] = [];
    for (const doc of docs) {
      const current = await now(doc.ref.pagePath);
      if (current?.v === doc.v) continue;
      if (current?.r != null) await remove(current.r);
      const r = doc.draft ? null : await insert(doc);
      kept.push([doc.ref.pagePath, JSON.stringify({ v: doc.v, r } satisfies Indexed)]);
    }
    for (const path of gone) {
      const r = (await now(path))?.r;
      if (r != null) await remove(r);
    }
    await storeEntries(ctx, source.id, "indexed", locale, kept);
    await drop(ctx, source.id, ["indexed"], gone);
  });
}

/**
 * Reads and renders a slice of pages, one render per turn of the event loop; pages already
 * indexed at the version read are left out, and so is a page that cannot be read (as it was until
 * the next time).
 */
async function docsOf(ctx: Ctx, repo: Repository, refs: PageRef[], indexed: (path: string) => Promise<Indexed | null>): Promise<Doc[]> {
  const unreadable = (e: unknown) => {
    if (!(e instanceof RepositoryUnavailable)) throw e;
    ctx.log.warn("docs: a page was not indexed", { detail: e.detail });
    return null;
  };
  const texts = await Promise.all(refs.map((ref) => repo.read(ref.repoPath).catch(unreadable)));
  const { renderSafely } = await renderer();
  const docs: Doc[] = [];
  for (const [i, ref] of refs.entries()) {
    const read = texts[i];
    if (!read) continue;
    const { text, version } = read;
    const v = versionKey(ref.repoPath, version);
    if ((await indexed(ref.pagePath))?.v === v) continue;
    const rendered = renderSafely(ctx.log, text, ref.repoPath, { link: (h) => h, image: (s) => s, diagram: null });
    // Drafts are not published, so not found either; the snippet marks are control characters: a document's own are not kept.
    docs.push({ ref, v, title: rendered.title, body: rendered.text.replace(/[\u0001\u0002]/g, ""), draft: rendered.frontmatter.draft === true });
    await yieldTurn();
  }
  return docs;
}

/**
 * Brings a (source, locale) index up to date: only the pages whose version changed are read
 * (a push that changed one page reads that page), pages gone are removed. A slice at a time, each
 * its own transaction, yielding between renders; stops when dropSearch cancels it.
 */
export function startIndexJob(ctx: Ctx, source: DocsSourceRow, locale: string): SearchJob {
  const repo = repositoryOf(ctx, source);
  let planned!: () => void;
  let failed!: (e: unknown) => void;
  const job: SearchJob = {
    total: 0,
    done: 0,
    cancelled: false,
    background: false,
    planned: new Promise<void>((resolve, reject) => {
      planned = resolve;
      failed = reject;
    }),
    finished: Promise.resolve(),
  };
  job.finished = (async () => {
    let plan: Awaited<ReturnType<typeof planOf>>;
    try {
      plan = await planOf(ctx, source, locale, repo);
    } catch (e) {
      failed(e);
      throw e;
    }
    job.total = plan.read.length;
    job.background = plan.read.length > READ_WHILE_WAITING;
    planned();
    const indexed = (path: string) => indexedNow(ctx, source.id, locale, path);
    if (plan.gone.length > 0 || plan.empty) await writeDocs(ctx, source, locale, [], plan.gone, plan.empty);
    for (let i = 0; i < plan.read.length && !job.cancelled; i += SLICE) {
      const docs = await docsOf(ctx, repo, plan.read.slice(i, i + SLICE), indexed);
      if (job.cancelled) break;
      await writeDocs(ctx, source, locale, docs, [], false);
      job.done = Math.min(plan.read.length, i + SLICE);
    }
    if (job.cancelled) return;
    const at = ctx.clock.now();
    await ctx.db
      .insert(docsSearchBuilds)
      .values({ sourceId: source.id, locale, builtAt: at })
      .onConflictDoUpdate({ target: [docsSearchBuilds.sourceId, docsSearchBuilds.locale], set: { builtAt: at } })
      .run();
  })();
  // Nobody may be waiting (a job in the background): a failure is logged where it is not answered.
  job.planned.catch(() => {});
  return job;
}
