import type { DocsSourceRow } from "../sources/sources.table.ts";
import type { SearchHit } from "../search/search.service.ts";
import type { DocPage, SidebarItem } from "./site.service.ts";
import { pageUrl } from "../pages/pages.ts";
import type { UiText } from "./translate.ts";

/** Every text of a page goes through this: titles, labels, names and dates are data, never markup. */
const esc = (text: string) => Bun.escapeHTML(text);

export type Frame = {
  siteName: string;
  sources: DocsSourceRow[];
  source: DocsSourceRow;
  locale: string;
  /** The current page's URL path, to mark it in the sidebar and the locale switcher. */
  path: string;
  /** The same page in each locale (the switcher's targets). */
  localeUrl: (locale: string) => string;
  sidebar: SidebarItem[];
  /** The locales to switch between (folders and machine-translated). */
  locales: string[];
  /** The site's own words in this locale. */
  ui: UiText;
  /** Repository names as shown (translated in a machine-translated locale), by source id. */
  names?: Map<string, string>;
  query?: string;
};

/** Locale names for the switcher, in their own language when the runtime knows them. */
function localeName(locale: string): string {
  try {
    return new Intl.DisplayNames([locale], { type: "language" }).of(locale) ?? locale;
  } catch {
    return locale;
  }
}

function sidebarHtml(items: SidebarItem[], current: string): string {
  const item = (i: SidebarItem): string => {
    if (i.kind === "page") return `<li><a href="${esc(i.url)}"${i.url === current ? ' aria-current="page"' : ""}>${esc(i.label)}</a></li>`;
    const head = i.url
      ? `<a href="${esc(i.url)}"${i.url === current ? ' aria-current="page"' : ""}><strong>${esc(i.label)}</strong></a>`
      : `<span class="folder">${esc(i.label)}</span>`;
    return `<li>${head}<ul>${i.items.map(item).join("")}</ul></li>`;
  };
  return `<ul>${items.map(item).join("")}</ul>`;
}

function frameHtml(frame: Frame, title: string, main: string, aside = ""): string {
  const { source, locale } = frame;
  const repos = frame.sources
    .map(
      (s) =>
        `<a href="${esc(pageUrl(s, s.defaultLocale, ""))}"${s.id === source.id ? ' aria-current="true"' : ""}>${esc(frame.names?.get(s.id) ?? s.name)}</a>`,
    )
    .join("");
  const locales =
    frame.locales.length > 1
      ? `<nav class="locales" aria-label="Language">${frame.locales
          .map(
            (l) =>
              `<a href="${esc(frame.localeUrl(l))}" hreflang="${esc(l)}" lang="${esc(l)}"${l === locale ? ' aria-current="true"' : ""}>${esc(localeName(l))}</a>`,
          )
          .join("")}</nav>`
      : "";
  const searchAction = `/docs/${encodeURIComponent(source.slug)}/_search`;
  return `<!doctype html>
<html lang="${esc(locale)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${esc(title)} · ${esc(source.name)}</title>
<link rel="stylesheet" href="/docs/_assets/docs.css">
</head>
<body>
<a class="skip-link" href="#content">Skip to content</a>
<header class="top">
<a class="brand" href="/docs">${esc(frame.siteName)} docs</a>
<nav class="repos" aria-label="Repositories">${repos}</nav>
${locales}
<form role="search" method="get" action="${esc(searchAction)}">
<input type="hidden" name="locale" value="${esc(locale)}">
<input type="search" name="q" aria-label="${esc(frame.ui.search)}" placeholder="${esc(frame.ui.search)}: ${esc(source.name)}" value="${esc(frame.query ?? "")}">
<button type="submit">${esc(frame.ui.search)}</button>
</form>
</header>
<div class="layout">
<nav class="sidebar" aria-label="Pages">${sidebarHtml(frame.sidebar, frame.path)}</nav>
<main id="content">${main}</main>
${aside}
</div>
</body>
</html>`;
}

export function pageHtml(frame: Frame, page: DocPage): string {
  const updated = page.lastUpdated
    ? `<p class="meta">${esc(frame.ui.lastUpdated)} <time datetime="${esc(page.lastUpdated.date)}">${esc(new Date(page.lastUpdated.date).toISOString().slice(0, 10))}</time>${
        page.lastUpdated.author ? ` by ${esc(page.lastUpdated.author)}` : ""
      }</p>`
    : "";
  const fallback = page.translated
    ? `<p class="notice" role="note">${esc(frame.ui.machineTranslated)}</p>`
    : page.fallback
      ? `<p class="notice" role="note">This page is not available in ${esc(localeName(frame.locale))} yet; it is shown in ${esc(localeName(frame.source.defaultLocale))}.</p>`
      : "";
  const toc = page.headings.length
    ? `<nav class="toc" aria-label="${esc(frame.ui.onThisPage)}"><p><strong>${esc(frame.ui.onThisPage)}</strong></p><ul>${page.headings
        .map((h) => `<li class="d${h.depth}"><a href="#${esc(h.id)}">${esc(h.text)}</a></li>`)
        .join("")}</ul></nav>`
    : "";
  return frameHtml(frame, page.title, `<article>${fallback}${page.html}${updated}</article>`, toc);
}

export function searchHtml(frame: Frame, query: string, hits: SearchHit[]): string {
  const body =
    query.trim() === ""
      ? "<p>Type a word or two to search.</p>"
      : hits.length === 0
        ? `<p>No page matches <strong>${esc(query)}</strong>.</p>`
        : `<ol class="results">${hits.map((h) => `<li><a href="${esc(h.url)}">${esc(h.title)}</a><p>${h.snippet}</p></li>`).join("")}</ol>`;
  return frameHtml({ ...frame, query }, `${frame.ui.search}: ${query}`, `<article><h1>${esc(frame.ui.search)}</h1>${body}</article>`);
}

export function missingHtml(frame: Frame, message: string): string {
  return frameHtml(frame, "Not found", `<article><h1>Page not found</h1><p>${esc(message)}</p></article>`);
}

/** `/docs` when no source is configured yet. */
export function emptySiteHtml(siteName: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Docs · ${esc(siteName)}</title><link rel="stylesheet" href="/docs/_assets/docs.css"></head>
<body><main class="layout" id="content"><article><h1>No documentation yet</h1>
<p>A site administrator adds a repository or a folder under Admin → Documentation.</p></article></main></body></html>`;
}
