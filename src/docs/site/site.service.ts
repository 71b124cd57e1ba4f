import type { AppContext } from "../../context/context.ts";
import { through } from "../cache/docs-cache.ts";
import { docsSettings } from "../settings/docs-settings.ts";
import { diagramUrl } from "./diagrams.ts";
import { renderer } from "../render/renderer.ts";
import { type LastUpdated, repositoryOf } from "../repository/repository.ts";
import type { DocsSourceRow } from "../sources/sources.table.ts";
import { fileUrl, linkTarget, localesOf, type PageRef } from "../pages/pages.ts";
import { machineLocales, TranslationUnavailable, translatedPage } from "./translate.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "config" | "secrets" | "outbound" | "log" | "docs">;

/** Every locale of a source on the site: its folders, then the machine-translated ones. */
export const siteLocales = async (ctx: Pick<AppContext, "db">, source: DocsSourceRow) => localesOf(source, await machineLocales(ctx, source));

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

/** A page rendered for a locale (cached per locale, spec 3 section 8). */
export async function docPage(ctx: Ctx, source: DocsSourceRow, locale: string, page: PageRef): Promise<DocPage> {
  const json = await through(ctx, { sourceId: source.id, kind: "html", locale, path: page.pagePath }, async () => {
    const repo = repositoryOf(ctx, source);
    const markdown = await repo.text(page.repoPath);
    const kroki = (await docsSettings(ctx)).kroki_url;
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
    if (doc.fallback && (await machineLocales(ctx, source)).includes(locale)) {
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
