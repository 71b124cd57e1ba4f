import { posix } from "node:path";
import type { DocsSourceRow } from "../sources/sources.table.ts";
import { isMarkdown } from "../repository/repository.ts";

/** A %-encoded path or link as written, decoded; a malformed escape leaves it as it is. */
export function decodeSafely(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** A page of the site: its path under the locale's root (`guide/setup.md`) and the file that holds it. */
export type PageRef = { pagePath: string; repoPath: string; fromLocale: string };

/**
 * The locales a source is read in: its locale folders (and the machine-translated ones, `extra`),
 * or just its default locale when it has no locale folders.
 */
export const localesOf = (source: Pick<DocsSourceRow, "locales" | "defaultLocale">, extra: string[] = []) =>
  source.locales.length > 0 ? [...source.locales, ...extra.filter((l) => !source.locales.includes(l))] : [source.defaultLocale];

const join = (...parts: string[]) => parts.filter((p) => p !== "").join("/");

/** The folder a locale's pages live in. */
export const localeRoot = (source: Pick<DocsSourceRow, "docsRoot" | "locales">, locale: string) =>
  source.locales.length > 0 ? join(source.docsRoot, locale) : source.docsRoot;

/**
 * The pages of a locale, by page path: its own files, then the default locale's for what it lacks
 * (the fallback of Docusaurus and MkDocs' i18n).
 */
export function pagesOf(source: DocsSourceRow, files: string[], locale: string): Map<string, PageRef> {
  const pages = new Map<string, PageRef>();
  const add = (from: string) => {
    const root = localeRoot(source, from);
    for (const repoPath of files) {
      if (!isMarkdown(repoPath) || (root !== "" && !repoPath.startsWith(`${root}/`))) continue;
      const pagePath = root === "" ? repoPath : repoPath.slice(root.length + 1);
      // Without locale folders, a folder named like a locale is just a folder; with them, the root holds only locales.
      if (source.locales.length > 0 && from !== locale && pages.has(pagePath)) continue;
      if (!pages.has(pagePath)) pages.set(pagePath, { pagePath, repoPath, fromLocale: from });
    }
  };
  add(locale);
  if (source.locales.length > 0 && locale !== source.defaultLocale) add(source.defaultLocale);
  return pages;
}

const INDEX = /(^|\/)(index|readme)\.mdx?$/i;

/** The site URL of a page: `/docs/<slug>[/<locale>]/guide/setup`; an index or README page is its folder's URL. */
export function pageUrl(source: Pick<DocsSourceRow, "slug" | "locales">, locale: string, pagePath: string): string {
  const withoutExt = INDEX.test(pagePath) ? pagePath.replace(INDEX, "$1").replace(/\/$/, "") : pagePath.replace(/\.mdx?$/i, "");
  const encoded = withoutExt.split("/").filter(Boolean).map(encodeURIComponent).join("/");
  const base = `/docs/${source.slug}${source.locales.length > 0 ? `/${locale}` : ""}`;
  return encoded === "" ? `${base}/` : `${base}/${encoded}`;
}

/** The page paths a URL path (after the locale) may name, in order: `guide/setup` is `guide/setup.md`, or `guide/setup/index.md`. */
export function pageCandidates(urlPath: string): string[] {
  const path = urlPath.replace(/^\/+|\/+$/g, "");
  return path === ""
    ? ["index.md", "README.md", "readme.md", "index.mdx"]
    : [`${path}.md`, `${path}.mdx`, `${path}/index.md`, `${path}/README.md`, `${path}/readme.md`, `${path}/index.mdx`];
}

/** The folder of a page path ("" for the docs root's own pages). */
export const folderOf = (pagePath: string) => (pagePath.includes("/") ? pagePath.slice(0, pagePath.lastIndexOf("/")) : "");

/**
 * Where a link written in a page goes: a relative `.md` link to that page's URL (its #fragment
 * kept), another relative file to the source's file route, anything else as written.
 */
export function linkTarget(source: DocsSourceRow, locale: string, page: PageRef, href: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith("#") || href.startsWith("/") || href.startsWith("//")) return href;
  const [target = "", fragment] = href.split("#", 2);
  const hash = fragment === undefined ? "" : `#${fragment}`;
  if (isMarkdown(target)) {
    const resolved = posix.normalize(posix.join(posix.dirname(page.pagePath), decodeSafely(target)));
    if (resolved.startsWith("..")) return href;
    return pageUrl(source, locale, resolved) + hash;
  }
  return fileUrl(source, page, target) + hash;
}

/** A picture or other file of the repository, relative to the page's own file. */
export function fileUrl(source: Pick<DocsSourceRow, "slug">, page: PageRef, src: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(src) || src.startsWith("/") || src.startsWith("//")) return src;
  const resolved = posix.normalize(posix.join(posix.dirname(page.repoPath), decodeSafely(src)));
  if (resolved.startsWith("..")) return src;
  return `/docs/${source.slug}/_files/${resolved.split("/").map(encodeURIComponent).join("/")}`;
}
