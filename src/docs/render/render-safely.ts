import type { Logger } from "../../shared/log.ts";
import { type RenderedPage, type RenderOptions, renderMarkdown } from "./render-markdown.ts";

/** Larger Markdown files are not rendered: a page's text is never this long, and rendering runs on the request thread. */
export const MAX_MARKDOWN_BYTES = 256 * 1024;

/**
 * A page rendered, or a short notice in its place when it is too large or the renderer fails on
 * it: one file can never take the site (or the search index) down, and the notice is cached like a page.
 */
export function renderSafely(log: Logger, markdown: string, path: string, options: RenderOptions): RenderedPage {
  const name = path.slice(path.lastIndexOf("/") + 1);
  const notice = (text: string): RenderedPage => ({
    html: `<p class="notice" role="note">${Bun.escapeHTML(text)}</p>`,
    title: name.replace(/\.mdx?$/i, ""),
    frontmatter: {},
    headings: [],
    text: "",
  });
  if (markdown.length > MAX_MARKDOWN_BYTES)
    return notice(`This page is too large to show here (${Math.round(markdown.length / 1024)} KB; the limit is ${MAX_MARKDOWN_BYTES / 1024} KB).`);
  try {
    return renderMarkdown(markdown, name, options);
  } catch (e) {
    log.warn("docs: page not rendered", { path, error: String(e) });
    return notice("This page could not be rendered.");
  }
}
