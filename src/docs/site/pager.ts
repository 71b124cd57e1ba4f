import type { SidebarItem } from "./site.service.ts";

export type PagerLink = { label: string; url: string };

/**
 * The pages before and after `current` in reading order: the sidebar's, top to bottom, a folder
 * with a page of its own before the pages inside it. Null at either end, and off the sidebar.
 */
export function pagerOf(items: SidebarItem[], current: string): { previous: PagerLink | null; next: PagerLink | null } {
  const order: PagerLink[] = [];
  const walk = (list: SidebarItem[]) => {
    for (const item of list) {
      if (item.url !== null) order.push({ label: item.label, url: item.url });
      if (item.kind === "folder") walk(item.items);
    }
  };
  walk(items);
  const at = order.findIndex((p) => p.url === current);
  if (at < 0) return { previous: null, next: null };
  return { previous: order[at - 1] ?? null, next: order[at + 1] ?? null };
}
