import { encodeDiagram } from "../../src/docs/render/diagram-key.ts";
import { type RenderOptions, renderMarkdown } from "../../src/docs/render/render-markdown.ts";

/* What the tests of the docs renderer share: rewriters and a page rendered as the site's guide/setup.md. */

// Identity rewriters: what reaches the output is what the sanitizer let through, not what a callback masked.
export const PLAIN: RenderOptions = { link: (href) => href, image: (src) => src, diagram: null };
export const WITH_DIAGRAMS: RenderOptions = { ...PLAIN, diagram: (type, source) => `/docs/_diagram/${type}/${encodeDiagram(source)}.svg` };
export const render = (markdown: string, options: RenderOptions = PLAIN) => renderMarkdown(markdown, "guide/setup.md", options);
export const html = (markdown: string, options: RenderOptions = PLAIN) => render(markdown, options).html;
