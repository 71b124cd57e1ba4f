import type { DocsSourceRow } from "../sources/sources.table.ts";
import type { SearchHit, SearchProgress } from "../search/search.service.ts";
import type { DocPage } from "./site.service.ts";
import { pageUrl } from "../pages/pages.ts";
import type { UiText } from "./translate.ts";
import type { Pager, PagerLink } from "./pager.ts";
import { markCurrent } from "./sidebar-html.ts";

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
  /** The sidebar as navLookup makes it (sidebar-html.ts): HTML, escaped, no page marked. */
  sidebar: string;
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

/** The top of every page of the site: the site's docs, and the way back to the rest of Cairn. */
function headHtml(title: string, lang: string): string {
  return `<!doctype html>
<html lang="${esc(lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${esc(title)}</title>
<link rel="icon" href="/docs/_assets/icon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/docs/_assets/docs.css">
</head>`;
}

const brandHtml = (siteName: string) => `<a class="brand" href="/docs">${esc(siteName)} docs</a>
<a class="home" href="/">Back to ${esc(siteName)}</a>`;

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
  return `${headHtml(`${title} · ${source.name}`, locale)}
<body>
<a class="skip-link" href="#content">Skip to content</a>
<header class="top">
${brandHtml(frame.siteName)}
<nav class="repos" aria-label="Repositories">${repos}</nav>
${locales}
<form role="search" method="get" action="${esc(searchAction)}">
<input type="hidden" name="locale" value="${esc(locale)}">
<input type="search" name="q" aria-label="${esc(frame.ui.search)}" placeholder="${esc(frame.ui.search)}: ${esc(source.name)}" value="${esc(frame.query ?? "")}">
<button type="submit">${esc(frame.ui.search)}</button>
</form>
</header>
<div class="layout">
<nav class="sidebar" aria-label="Pages">${markCurrent(frame.sidebar, frame.path)}</nav>
<main id="content">${main}</main>
${aside}
</div>
</body>
</html>`;
}

export function pageHtml(frame: Frame, page: DocPage, pager: Pager): string {
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
  // The page's sections (h2 and h3): deeper headings would make the list longer than it helps.
  const sections = page.headings.filter((h) => h.depth <= 3);
  const toc = sections.length
    ? `<nav class="toc" aria-label="${esc(frame.ui.onThisPage)}"><p><strong>${esc(frame.ui.onThisPage)}</strong></p><ul>${sections
        .map((h) => `<li class="d${h.depth}"><a href="#${esc(h.id)}">${esc(h.text)}</a></li>`)
        .join("")}</ul></nav>`
    : "";
  return frameHtml(frame, page.title, `<article>${fallback}${page.html}${updated}${pagerHtml(frame, pager)}</article>`, toc);
}

/** Previous and next pages, in the sidebar's order. */
function pagerHtml(frame: Frame, { previous, next }: Pager): string {
  if (!previous && !next) return "";
  const link = (to: PagerLink, rel: "prev" | "next", word: string) =>
    `<a class="${rel}" rel="${rel}" href="${esc(to.url)}"><small>${esc(word)}</small>${esc(to.label)}</a>`;
  return `<nav class="pager" aria-label="${esc(frame.ui.pager)}">${previous ? link(previous, "prev", frame.ui.previous) : ""}${
    next ? link(next, "next", frame.ui.next) : ""
  }</nav>`;
}

export function searchHtml(frame: Frame, query: string, hits: SearchHit[], building: SearchProgress | null = null): string {
  const note = building
    ? `<p class="notice" role="note">Search is still reading these pages (${building.done.toLocaleString("en-US")} of ${building.total.toLocaleString("en-US")}): some are not found yet.</p>`
    : "";
  const body =
    query.trim() === ""
      ? "<p>Type a word or two to search.</p>"
      : hits.length === 0
        ? `<p>No page matches <strong>${esc(query)}</strong>.</p>`
        : `<ol class="results">${hits.map((h) => `<li><a href="${esc(h.url)}">${esc(h.title)}</a><p>${h.snippet}</p></li>`).join("")}</ol>`;
  return frameHtml({ ...frame, query }, `${frame.ui.search}: ${query}`, `<article><h1>${esc(frame.ui.search)}</h1>${note}${body}</article>`);
}

export function missingHtml(frame: Frame, message: string): string {
  return frameHtml(frame, "Not found", `<article><h1>Page not found</h1><p>${esc(message)}</p></article>`);
}

/** A page of the site outside any source: its header (with the way back to Cairn), and a centred message with where to go. */
function noticeHtml(siteName: string, title: string, text: string, links: { href: string; label: string }[]): string {
  const actions = links.length
    ? `<p class="actions">${links.map((l) => `<a class="button primary" href="${esc(l.href)}">${esc(l.label)}</a>`).join("")}</p>`
    : "";
  return `${headHtml(`${title} · ${siteName} docs`, "en")}
<body>
<a class="skip-link" href="#content">Skip to content</a>
<header class="top">
${brandHtml(siteName)}
</header>
<main id="content" class="empty-state"><h1>${esc(title)}</h1><p>${esc(text)}</p>${actions}</main>
</body>
</html>`;
}

/** `/docs` when the site has no source to show (the guide hidden, none added): admins get the way to add one. */
export function emptySiteHtml(siteName: string, admin: boolean): string {
  return admin
    ? noticeHtml(siteName, "No documentation yet", "Add a repository or a folder of Markdown files, and it is published here.", [
        { href: "/admin#documentation", label: "Add a source" },
      ])
    : noticeHtml(siteName, "No documentation yet", "A site administrator can publish a repository or a folder of Markdown files here.", []);
}

/** `/docs/<slug>/...` of no source the site shows. */
export function unknownSourceHtml(siteName: string): string {
  return noticeHtml(siteName, "Page not found", "There is no documentation at this address.", [{ href: "/docs", label: "All documentation" }]);
}
