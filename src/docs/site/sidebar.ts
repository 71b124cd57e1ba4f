import { type PageRef, localeRoot, pageUrl } from "../pages/pages.ts";
import { isCategory } from "../repository/repository.ts";
import type { DocsSourceRow } from "../sources/sources.table.ts";
import type { FileFacts } from "./sidebar-facts.ts";
import { TranslationUnavailable, translatedLabels } from "./translate.ts";

export type SidebarFolder = { kind: "folder"; label: string; url: string | null; position: number; items: SidebarItem[]; path: string };
export type SidebarItem = { kind: "page"; label: string; url: string; position: number } | SidebarFolder;

const label = (name: string) => {
  const bare = name.replace(/\.mdx?$/i, "").replace(/^\d+[-_.]\s*/, "");
  return (bare.charAt(0).toUpperCase() + bare.slice(1)).replace(/[-_]+/g, " ");
};
const INDEX = /^(index|readme)\.mdx?$/i;
/** `localeCompare`'s order, with one collator for the thousands of comparisons of a large sidebar. */
const byText = new Intl.Collator().compare;

/** The `_category_.json` files a locale's folders may take their label and place from: the locale's own, else the default locale's. */
export function categoryFiles(source: DocsSourceRow, files: string[], locale: string): Map<string, string> {
  const byDir = new Map<string, string>();
  const roots = [...new Set([localeRoot(source, source.defaultLocale), localeRoot(source, locale)])];
  for (const root of roots)
    for (const file of files) {
      if (!isCategory(file) || (root !== "" && !file.startsWith(`${root}/`))) continue;
      const dir = file.slice(root === "" ? 0 : root.length + 1, -"/_category_.json".length);
      if (dir !== "" && !dir.startsWith("/")) byDir.set(dir, file);
    }
  return byDir;
}

/**
 * The sidebar of a locale, from the folder tree as Docusaurus builds it and the files' facts: a
 * page's label and place from its frontmatter, a folder's from its `_category_.json` or its
 * index page; then by position and label. The source's home page comes first unless its
 * frontmatter places it (issue 42).
 */
export function sidebarItems(
  source: DocsSourceRow,
  locale: string,
  pages: Map<string, PageRef>,
  categories: Map<string, string>,
  facts: Map<string, FileFacts>,
): SidebarItem[] {
  const root: SidebarFolder = { kind: "folder", label: "", url: null, position: 0, items: [], path: "" };
  const folders = new Map<string, SidebarFolder>([["", root]]);
  const folder = (path: string): SidebarFolder => {
    const known = folders.get(path);
    if (known) return known;
    const slash = path.lastIndexOf("/");
    const made: SidebarFolder = { kind: "folder", label: label(path.slice(slash + 1)), url: null, position: Number.POSITIVE_INFINITY, items: [], path };
    folders.set(path, made);
    folder(slash < 0 ? "" : path.slice(0, slash)).items.push(made);
    return made;
  };
  for (const page of [...pages.values()].sort((a, b) => byText(a.pagePath, b.pagePath))) {
    const known = facts.get(page.repoPath);
    if (!known || known.hidden) continue;
    const slash = page.pagePath.lastIndexOf("/");
    const dir = slash < 0 ? "" : page.pagePath.slice(0, slash);
    const name = page.pagePath.slice(slash + 1);
    const text = known.label ?? label(name);
    const home = INDEX.test(name) && dir === "";
    const position = known.position ?? (home ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY);
    const url = pageUrl(source, locale, page.pagePath);
    if (INDEX.test(name) && dir !== "") {
      const owner = folder(dir);
      owner.url = url;
      owner.label = text;
      if (position !== Number.POSITIVE_INFINITY) owner.position = position;
    } else folder(dir).items.push({ kind: "page", label: text, url, position });
  }
  for (const [dir, file] of categories) {
    const target = folders.get(dir);
    const meta = facts.get(file);
    if (!target || !meta) continue;
    target.label = meta.label ?? target.label;
    target.position = meta.position ?? target.position;
  }
  const order = (items: SidebarItem[]) => {
    items.sort((a, b) => a.position - b.position || byText(a.label, b.label));
    for (const item of items) if (item.kind === "folder") order(item.items);
    return items;
  };
  return order(root.items);
}

/** Every entry, top to bottom (a folder before what it holds). */
export function sidebarEntries(items: SidebarItem[]): SidebarItem[] {
  const all: SidebarItem[] = [];
  const walk = (list: SidebarItem[]) => {
    for (const item of list) {
      all.push(item);
      if (item.kind === "folder") walk(item.items);
    }
  };
  walk(items);
  return all;
}

/** A machine-translated locale's sidebar: every label in one batch; untranslated when the translator fails. */
export async function translateSidebar(
  ctx: Parameters<typeof translatedLabels>[0],
  source: DocsSourceRow,
  locale: string,
  items: SidebarItem[],
): Promise<void> {
  const all = sidebarEntries(items);
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
