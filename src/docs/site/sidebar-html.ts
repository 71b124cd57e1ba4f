import type { SidebarFolder, SidebarItem } from "./sidebar.ts";

/** Every text goes through this: labels are data, never markup. */
const esc = (text: string) => Bun.escapeHTML(text);

/**
 * One entry of a folder's list, as HTML: a page's `<li>`, or a folder with the two ways it is
 * shown: `closed` (one link, to its first page) or opened in place (`head`, then its own list).
 */
export type SidebarEntry = string | { folder: string; head: string; closed: string };

/** The first page a folder leads to: its own, else the first in it. */
function firstUrl(folder: SidebarFolder): string | null {
  if (folder.url !== null) return folder.url;
  for (const item of folder.items) {
    const url = item.kind === "page" ? item.url : firstUrl(item);
    if (url !== null) return url;
  }
  return null;
}

const pageHtml = (i: SidebarItem & { kind: "page" }) => `<li><a href="${esc(i.url)}">${esc(i.label)}</a></li>`;
const headHtml = (i: SidebarFolder) => (i.url ? `<a href="${esc(i.url)}"><strong>${esc(i.label)}</strong></a>` : `<span class="folder">${esc(i.label)}</span>`);

/** The sidebar whole, every folder open, no page marked yet (markCurrent). */
export function wholeSidebar(items: SidebarItem[]): string {
  const item = (i: SidebarItem): string => (i.kind === "page" ? pageHtml(i) : `<li>${headHtml(i)}<ul>${i.items.map(item).join("")}</ul></li>`);
  return `<ul>${items.map(item).join("")}</ul>`;
}

/** A folder's list (its items, the root's for the top level), each entry made once. */
export function folderList(items: SidebarItem[]): SidebarEntry[] {
  return items.flatMap((i): SidebarEntry[] => {
    if (i.kind === "page") return [pageHtml(i)];
    const url = firstUrl(i);
    return url === null ? [] : [{ folder: i.path, head: headHtml(i), closed: `<li class="closed"><a href="${esc(url)}">${esc(i.label)}</a></li>` }];
  });
}

const inside = (open: string, folder: string) => open === folder || open.startsWith(`${folder}/`);

/**
 * The sidebar of the pages in folder `open`: the top level, the folders that hold `open` opened
 * in place, every other folder one link. Its size follows the page's own section, not the site;
 * no script needed. Null when a folder's list it needs is not at hand.
 */
export function composeSidebar(open: string, listOf: (folder: string) => SidebarEntry[] | null): string | null {
  const list = (folder: string): string | null => {
    const entries = listOf(folder);
    if (entries === null) return null;
    let html = "<ul>";
    for (const e of entries) {
      if (typeof e === "string" || !inside(open, e.folder)) html += typeof e === "string" ? e : e.closed;
      else {
        const inner = list(e.folder);
        if (inner === null) return null;
        html += `<li>${e.head}${inner}</li>`;
      }
    }
    return `${html}</ul>`;
  };
  return list("");
}

/** The sidebar with the page at `url` marked as the current one. */
export const markCurrent = (sidebar: string, url: string) => {
  const link = `<a href="${esc(url)}">`;
  return sidebar.replaceAll(link, `<a href="${esc(url)}" aria-current="page">`);
};
