import type { AppContext } from "../../context/context.ts";
import { cached, storeEntries } from "../cache/docs-cache.ts";
import { folderOf, type PageRef, pageCandidates, pagesOf, pageUrl } from "../pages/pages.ts";
import { repositoryOf } from "../repository/repository.ts";
import type { DocsSourceRow } from "../sources/sources.table.ts";
import { type Pager, pagersOf } from "./pager.ts";
import { categoryFiles, type SidebarItem, sidebarEntries, sidebarItems, translateSidebar } from "./sidebar.ts";
import { sidebarFacts } from "./sidebar-facts.ts";
import { composeSidebar, folderList, type SidebarEntry, wholeSidebar } from "./sidebar-html.ts";
import { machineLocales } from "./translate.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "config" | "secrets" | "outbound" | "log" | "docs">;

/** A page as its folder knows it: the file it is read from, and the pages before and after it. */
export type NavPage = PageRef & Pager;
/**
 * One folder of a locale (a `sidebar` cache row at `/<folder>`): its own list in the sidebar, and
 * its own pages by page path; the root's also holds the sidebar whole when it is small. A page
 * view reads its folder's row and those of the folders above it, nothing of the others, so it
 * costs the same at 2,000 pages as at 10; a push makes rows of about the size of the site.
 */
export type NavFolder = { list: SidebarEntry[] | null; whole?: string; pages: Record<string, NavPage> };

/** Up to this many entries the sidebar is shown whole on every page; past it, the top level and the current page's folders. */
export const SIDEBAR_WHOLE_MAX = 60;

/** Every folder's row of a locale, from its sidebar and its pages. */
export function navFolders(source: DocsSourceRow, locale: string, items: SidebarItem[], pages: Map<string, PageRef>): Map<string, NavFolder> {
  const whole = sidebarEntries(items).length <= SIDEBAR_WHOLE_MAX;
  const folders = new Map<string, NavFolder>();
  const row = (dir: string) => {
    let folder = folders.get(dir);
    if (!folder) folders.set(dir, (folder = { list: null, pages: {} }));
    return folder;
  };
  if (whole) row("").whole = wholeSidebar(items);
  else {
    row("").list = folderList(items);
    for (const item of sidebarEntries(items)) if (item.kind === "folder") row(item.path).list = folderList(item.items);
  }
  const pagers = pagersOf(items);
  for (const page of pages.values()) {
    const pager = pagers.get(pageUrl(source, locale, page.pagePath)) ?? { previous: null, next: null };
    row(folderOf(page.pagePath)).pages[page.pagePath] = { ...page, ...pager };
  }
  return folders;
}

const rowPath = (dir: string) => `/${dir}`;

/** `a/b/c` is inside `a`, `a/b` and itself. */
const foldersHolding = (dir: string) => (dir === "" ? [] : dir.split("/").map((_, i, parts) => parts.slice(0, i + 1).join("/")));

/**
 * Builds every folder's row of a locale and keeps them (replacing the old ones, all with one
 * expiry): from the tree and each file's sidebar facts, so only files that changed are read.
 * Concurrent misses share one build.
 */
function buildNav(ctx: Ctx, source: DocsSourceRow, locale: string): Promise<Map<string, string>> {
  const key = `${source.id}\u0000${locale}`;
  const running = ctx.docs.sidebars.get(key);
  if (running) return running;
  const work = (async () => {
    const repo = repositoryOf(ctx, source);
    const tree = await repo.tree();
    const files = tree.map((e) => e.path);
    const pages = pagesOf(source, files, locale);
    const categories = categoryFiles(source, files, locale);
    const wanted = [...new Set([...[...pages.values()].map((p) => p.repoPath), ...categories.values()])];
    const { facts, complete } = await sidebarFacts(ctx, source, repo, tree, wanted);
    const items = sidebarItems(source, locale, pages, categories, facts);
    if ((await machineLocales(ctx, source)).includes(locale)) await translateSidebar(ctx, source, locale, items);
    const rows = new Map([...navFolders(source, locale, items, pages)].map(([dir, folder]) => [rowPath(dir), JSON.stringify(folder)]));
    try {
      // A file that could not be read is left out of this answer only: the next view builds again.
      if (complete) await storeEntries(ctx, source.id, "sidebar", locale, rows, true);
    } catch (e) {
      // The source was removed meanwhile (its rows cascade): answer, keep nothing.
      ctx.log.warn("docs: sidebar not kept", { source: source.slug, error: String(e) });
    }
    return rows;
  })().finally(() => ctx.docs.sidebars.delete(key));
  ctx.docs.sidebars.set(key, work);
  return work;
}

/**
 * The page a URL path (after the locale) names, if any, and the sidebar it shows (that of the
 * root when there is no such page): from the rows of its folder and those above it. Builds every
 * row of the locale when they are not there (after a push, or once they expired). Throws
 * RepositoryUnavailable when a build cannot read the repository.
 */
export async function navLookup(ctx: Ctx, source: DocsSourceRow, locale: string, urlPath: string): Promise<{ page: NavPage | null; sidebar: string }> {
  let built: Map<string, string> | null = null;
  const seen = new Map<string, NavFolder | null>();
  const folderAt = async (dir: string): Promise<NavFolder | null> => {
    if (!seen.has(dir)) {
      const json = built ? (built.get(rowPath(dir)) ?? null) : await cached(ctx, { sourceId: source.id, kind: "sidebar", locale, path: rowPath(dir) });
      seen.set(dir, json === null ? null : (JSON.parse(json) as NavFolder));
    }
    return seen.get(dir) ?? null;
  };
  const answer = async () => {
    const root = await folderAt("");
    if (root === null) return null;
    let page: NavPage | null = null;
    for (const candidate of pageCandidates(urlPath)) {
      page = (await folderAt(folderOf(candidate)))?.pages[candidate] ?? null;
      if (page) break;
    }
    if (root.whole !== undefined) return { page, sidebar: root.whole };
    const open = page ? folderOf(page.pagePath) : "";
    // The rows composeSidebar reads: the folders holding `open` (the root's is read above).
    for (const dir of foldersHolding(open)) await folderAt(dir);
    const sidebar = composeSidebar(open, (dir) => seen.get(dir)?.list ?? null);
    return sidebar === null ? null : { page, sidebar };
  };
  const found = await answer();
  if (found) return found;
  // No rows (never built, dropped by a push, expired), or some went meanwhile: all are made again.
  built = await buildNav(ctx, source, locale);
  seen.clear();
  return (await answer()) ?? { page: null, sidebar: "" };
}
