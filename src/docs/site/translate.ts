import type { AppContext } from "../../context/context.ts";
import { readSetting, writeSetting } from "../../db/settings.repo.ts";
import { OutboundRefused, safeFetch } from "../../shared/safe-fetch.ts";
import { through } from "../cache/docs-cache.ts";
import { docsSettings, translateKey } from "../settings/docs-settings.ts";
import { renderer } from "../render/renderer.ts";
import type { DocsSourceRow } from "../sources/sources.table.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "config" | "secrets" | "outbound" | "log" | "docs">;

/** The translator could not answer: the page is shown untranslated (in its default locale) instead. */
export class TranslationUnavailable extends Error {}

const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

/** One call to a LibreTranslate-compatible API (`POST /translate`), through the outbound guard. */
async function translate(ctx: Ctx, q: string, source: string, target: string, format: "html" | "text"): Promise<string> {
  const { translate_url } = await docsSettings(ctx);
  const key = await translateKey(ctx);
  try {
    const res = await safeFetch(
      `${translate_url}/translate`,
      {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify({ q, source, target, format, ...(key ? { api_key: key } : {}) }),
      },
      ctx.outbound,
      { maxBytes: MAX_ANSWER_BYTES },
    );
    const answer = res.status === 200 ? (JSON.parse(res.body) as { translatedText?: unknown }).translatedText : undefined;
    if (typeof answer !== "string") throw new TranslationUnavailable(`the translator answered ${res.status}`);
    return answer;
  } catch (e) {
    if (e instanceof TranslationUnavailable) throw e;
    throw new TranslationUnavailable(e instanceof OutboundRefused ? e.detail : String(e));
  }
}

/** The locales pages are machine-translated into (when a translator is configured), beyond a source's own. */
export async function machineLocales(ctx: Pick<AppContext, "db">, source: Pick<DocsSourceRow, "locales" | "defaultLocale">): Promise<string[]> {
  const settings = await docsSettings(ctx);
  if (settings.translate_url === "") return [];
  return settings.translate_locales.filter((l) => l !== source.defaultLocale && !source.locales.includes(l));
}

/**
 * A page's HTML and title in `target`, translated from the default locale's rendering; a row per
 * page of the source (spec 3 section 4.4: dropped with every push). The translator's answer is
 * HTML from elsewhere: sanitized again, and its links moved into the target locale.
 */
export async function translatedPage(ctx: Ctx, source: DocsSourceRow, target: string, pagePath: string, page: { title: string; html: string }) {
  const json = await through(ctx, { sourceId: source.id, kind: "translation", locale: target, path: `page:${pagePath}` }, async () => {
    const [html, title] = await Promise.all([
      translate(ctx, page.html, source.defaultLocale, target, "html"),
      translate(ctx, page.title, source.defaultLocale, target, "text"),
    ]);
    const from = `/docs/${source.slug}/${source.defaultLocale}/`;
    const to = `/docs/${source.slug}/${target}/`;
    const move = (url: string) => (url.startsWith(from) ? to + url.slice(from.length) : url);
    const { htmlToText, sanitizePage } = await renderer();
    return JSON.stringify({ html: sanitizePage(html, { link: move, image: (src) => src }), title: htmlToText(title) });
  });
  return JSON.parse(json) as { html: string; title: string };
}

/** Labels (sidebar entries, repository names) translated as one batch: a row per kind of list. */
export async function translatedLabels(ctx: Ctx, source: DocsSourceRow, target: string, kind: "sidebar" | "repo-nav", labels: string[]): Promise<string[]> {
  if (labels.length === 0) return labels;
  const json = await through(ctx, { sourceId: source.id, kind: "translation", locale: target, path: kind }, async () => {
    const lines = (await translate(ctx, labels.join("\n"), source.defaultLocale, target, "text")).split("\n");
    return JSON.stringify(lines.length === labels.length ? lines.map((l) => l.trim()) : labels);
  });
  const translated = JSON.parse(json) as string[];
  return translated.length === labels.length ? translated : labels;
}

/** The site's own words on every docs page. */
export const UI_TEXT = {
  search: "Search",
  onThisPage: "On this page",
  lastUpdated: "Last updated on",
  machineTranslated: "This page was translated automatically.",
  previous: "Previous",
  next: "Next",
  pager: "Previous and next",
};
export type UiText = typeof UI_TEXT;
const UI_KEY = "docs_ui_translations";

/** The site's words in a locale: site-level rows, refreshed hourly by a job, never by a push. English until then. */
export async function uiText(ctx: Pick<AppContext, "db">, locale: string): Promise<UiText> {
  return { ...UI_TEXT, ...((await readSetting<Record<string, Partial<UiText>>>(ctx.db, UI_KEY))?.[locale] ?? {}) };
}

/** The hourly job: the site's words into every machine-translated locale. */
export async function refreshUiTranslations(ctx: Ctx): Promise<void> {
  const settings = await docsSettings(ctx);
  if (settings.translate_url === "") return;
  const keys = Object.keys(UI_TEXT) as (keyof UiText)[];
  const all: Record<string, Partial<UiText>> = { ...(await readSetting<Record<string, Partial<UiText>>>(ctx.db, UI_KEY)) };
  for (const locale of settings.translate_locales) {
    try {
      const lines = (await translate(ctx, keys.map((k) => UI_TEXT[k]).join("\n"), "en", locale, "text")).split("\n");
      if (lines.length === keys.length) all[locale] = Object.fromEntries(keys.map((k, i) => [k, (lines[i] as string).trim()]));
    } catch (e) {
      ctx.log.warn("docs: site words not translated", { locale, error: String(e) });
    }
  }
  await writeSetting(ctx.db, ctx.clock, UI_KEY, all);
}
