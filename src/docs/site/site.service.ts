import type { AppContext } from "../../context/context.ts";
import { through } from "../cache/docs-cache.ts";
import { docsSettings } from "../settings/docs-settings.ts";
import { diagramUrl } from "./diagrams.ts";
import { renderer } from "../render/renderer.ts";
import { isCategory, type LastUpdated, repositoryOf } from "../repository/repository.ts";
import type { DocsSourceRow } from "../sources/sources.table.ts";
import { fileUrl, linkTarget, localeRoot, localesOf, type PageRef, pageUrl, pagesOf } from "../pages/pages.ts";
import { machineLocales, TranslationUnavailable, translatedLabels, translatedPage } from "./translate.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "config" | "secrets" | "outbound" | "log" | "docs">;

export type SidebarItem =
  | { kind: "page"; label: string; url: string; position: number }
  | { kind: "folder"; label: string; url: string | null; position: number; items: SidebarItem[] };

/** Every locale of a source on the site: its folders, then the machine-translated ones. */
export const siteLocales = (ctx: Pick<AppContext, "db">, source: DocsSourceRow) => localesOf(source, machineLocales(ctx, source));

export type DocPage = {
  title: string;
  html: string;
  headings: { depth: number; text: string; id: string }[];
  lastUpdated: LastUpdated;
  repoPath: string;
  /** Shown in the default locale because the requested one lacks the page. */
  fallback: boolean;
  /** Machine-translated from the default locale. */
  translated: boolean;
  /** `draft: true` in its frontmatter: not published (the site answers 404). */
  draft: boolean;
};

/** The pages of a locale (from the cached repository tree). */
export async function localePages(ctx: Ctx, source: DocsSourceRow, locale: string) {
  return pagesOf(source, await repositoryOf(ctx, source).files(), locale);
}

const label = (name: string) => {
  const bare = name.replace(/\.mdx?$/i, "").replace(/^\d+[-_.]\s*/, "");
  return (bare.charAt(0).toUpperCase() + bare.slice(1)).replace(/[-_]+/g, " ");
};
const numberOr = (value: unknown, fallback: number) => (typeof value === "number" && Number.isFinite(value) ? value : fallback);
const textOr = (value: unknown, fallback: string) => (typeof value === "string" && value.trim() !== "" ? value.trim() : fallback);
const firstHeading = (body: string) => /^#\s+(.+)$/m.exec(body)?.[1]?.trim();
const INDEX = /^(index|readme)\.mdx?$/i;
/** Files read from the hosting service at once while a sidebar is built. */
const FETCHES_AT_ONCE = 8;

/** `work` over `items`, at most `size` at a time, answers in order. */
async function inBatches<T, R>(items: T[], size: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += size) out.push(...(await Promise.all(items.slice(i, i + size).map(work))));
  return out;
}

/**
 * The sidebar of a locale, from the folder tree as Docusaurus builds it: a page's label and
 * place from its frontmatter (`sidebar_label`, `title`, `sidebar_position`; `draft` or
 * `sidebar_exclude` hide it), a folder's from its `_category_.json` (`label`, `position`) or its
 * index page; then by position and label. Cached per locale.
 */
export async function sidebarOf(ctx: Ctx, source: DocsSourceRow, locale: string): Promise<SidebarItem[]> {
  const json = await through(ctx, { sourceId: source.id, kind: "sidebar", locale }, async () => {
    const repo = repositoryOf(ctx, source);
    const files = await repo.files();
    const pages = pagesOf(source, files, locale);
    const root: SidebarItem & { kind: "folder" } = { kind: "folder", label: "", url: null, position: 0, items: [] };
    const folders = new Map<string, SidebarItem & { kind: "folder" }>([["", root]]);
    const folder = (path: string): SidebarItem & { kind: "folder" } => {
      const known = folders.get(path);
      if (known) return known;
      const name = path.slice(path.lastIndexOf("/") + 1);
      const made: SidebarItem & { kind: "folder" } = { kind: "folder", label: label(name), url: null, position: Number.POSITIVE_INFINITY, items: [] };
      folders.set(path, made);
      folder(path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "").items.push(made);
      return made;
    };
    const sorted = [...pages.values()].sort((a, b) => a.pagePath.localeCompare(b.pagePath));
    const texts = await inBatches(sorted, FETCHES_AT_ONCE, (page) => repo.text(page.repoPath));
    const { parseFrontmatter } = await renderer();
    for (const [i, page] of sorted.entries()) {
      const { data, body } = parseFrontmatter(texts[i] as string);
      if (data.draft === true || data.sidebar_exclude === true) continue;
      const slash = page.pagePath.lastIndexOf("/");
      const dir = slash < 0 ? "" : page.pagePath.slice(0, slash);
      const name = page.pagePath.slice(slash + 1);
      const text = textOr(data.sidebar_label, textOr(data.title, firstHeading(body) ?? label(name)));
      // The source's home page comes first unless its frontmatter places it (issue 42).
      const home = INDEX.test(name) && dir === "";
      const position = numberOr(data.sidebar_position, home ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY);
      const url = pageUrl(source, locale, page.pagePath);
      if (INDEX.test(name) && dir !== "") {
        const owner = folder(dir);
        owner.url = url;
        owner.label = text;
        if (position !== Number.POSITIVE_INFINITY) owner.position = position;
      } else folder(dir).items.push({ kind: "page", label: text, url, position });
    }
    // Docusaurus's _category_.json, of the locale or else the default locale.
    for (const file of files.filter(isCategory)) {
      const inRoot = localeRoot(source, locale);
      const fallbackRoot = localeRoot(source, source.defaultLocale);
      const root = file.startsWith(inRoot === "" ? "" : `${inRoot}/`) ? inRoot : file.startsWith(`${fallbackRoot}/`) ? fallbackRoot : null;
      if (root === null) continue;
      const dir = file.slice(root === "" ? 0 : root.length + 1, -"/_category_.json".length);
      const target = folders.get(dir);
      if (!target || dir === "") continue;
      try {
        const meta = JSON.parse(await repo.text(file)) as { label?: unknown; position?: unknown };
        target.label = textOr(meta.label, target.label);
        target.position = numberOr(meta.position, target.position);
      } catch {
        // A malformed _category_.json leaves the folder's defaults.
      }
    }
    const order = (items: SidebarItem[]) => {
      items.sort((a, b) => a.position - b.position || a.label.localeCompare(b.label));
      for (const item of items) if (item.kind === "folder") order(item.items);
      return items;
    };
    const items = order(root.items);
    if (machineLocales(ctx, source).includes(locale)) await translateSidebar(ctx, source, locale, items);
    // Infinity is not JSON: unplaced items keep their order by label, the home page its place first.
    return JSON.stringify(items, (_, v) => (v === Number.POSITIVE_INFINITY ? 1e9 : v === Number.NEGATIVE_INFINITY ? -1e9 : v));
  });
  return JSON.parse(json) as SidebarItem[];
}

/** A machine-translated locale's sidebar: every label in one batch; untranslated when the translator fails. */
async function translateSidebar(ctx: Ctx, source: DocsSourceRow, locale: string, items: SidebarItem[]): Promise<void> {
  const all: SidebarItem[] = [];
  const walk = (list: SidebarItem[]) => {
    for (const item of list) {
      all.push(item);
      if (item.kind === "folder") walk(item.items);
    }
  };
  walk(items);
  try {
    const labels = await translatedLabels(
      ctx,
      source,
      locale,
      "sidebar",
      all.map((i) => i.label),
    );
    all.forEach((item, i) => {
      item.label = labels[i] ?? item.label;
    });
  } catch (e) {
    if (!(e instanceof TranslationUnavailable)) throw e;
    ctx.log.warn("docs: sidebar not translated", { source: source.slug, locale, error: e.message });
  }
}

/** A page rendered for a locale (cached per locale, spec 3 section 8). */
export async function docPage(ctx: Ctx, source: DocsSourceRow, locale: string, page: PageRef): Promise<DocPage> {
  const json = await through(ctx, { sourceId: source.id, kind: "html", locale, path: page.pagePath }, async () => {
    const repo = repositoryOf(ctx, source);
    const markdown = await repo.text(page.repoPath);
    const kroki = docsSettings(ctx).kroki_url;
    const { renderSafely } = await renderer();
    const rendered = renderSafely(ctx.log, markdown, page.repoPath, {
      link: (href) => linkTarget(source, locale, page, href),
      image: (src) => fileUrl(source, page, src),
      diagram: kroki === "" ? null : (type, text) => diagramUrl(ctx, type, text),
    });
    let lastUpdated: LastUpdated = null;
    try {
      lastUpdated = await repo.lastUpdated(page.repoPath);
    } catch (e) {
      // The page is shown without its date rather than not at all.
      ctx.log.warn("docs: last-updated metadata unavailable", { source: source.slug, path: page.repoPath, error: String(e) });
    }
    const doc: DocPage = {
      title: rendered.title,
      html: rendered.html,
      headings: rendered.headings,
      lastUpdated,
      repoPath: page.repoPath,
      fallback: page.fromLocale !== locale,
      translated: false,
      draft: rendered.frontmatter.draft === true,
    };
    // A machine-translated locale shows the default locale's page translated, or untranslated when the translator fails.
    if (doc.fallback && machineLocales(ctx, source).includes(locale)) {
      try {
        const translated = await translatedPage(ctx, source, locale, page.pagePath, doc);
        Object.assign(doc, { html: translated.html, title: translated.title, fallback: false, translated: true });
      } catch (e) {
        if (!(e instanceof TranslationUnavailable)) throw e;
        ctx.log.warn("docs: page not translated", { source: source.slug, locale, path: page.pagePath, error: e.message });
      }
    }
    return JSON.stringify(doc);
  });
  return JSON.parse(json) as DocPage;
}
