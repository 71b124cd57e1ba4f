import { type SidebarItem, sidebarEntries } from "./sidebar.ts";

export type PagerLink = { label: string; url: string };
export type Pager = { previous: PagerLink | null; next: PagerLink | null };

/**
 * The pages before and after each page in reading order, by URL: the sidebar's, top to bottom, a
 * folder with a page of its own before the pages inside it. Null at either end; a page off the
 * sidebar has none.
 */
export function pagersOf(items: SidebarItem[]): Map<string, Pager> {
  const order: PagerLink[] = sidebarEntries(items).flatMap((item) => (item.url === null ? [] : [{ label: item.label, url: item.url }]));
  const pagers = new Map<string, Pager>();
  for (const [at, link] of order.entries()) if (!pagers.has(link.url)) pagers.set(link.url, { previous: order[at - 1] ?? null, next: order[at + 1] ?? null });
  return pagers;
}
