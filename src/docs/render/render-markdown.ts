import GithubSlugger from "github-slugger";
import { Marked, type Tokens } from "marked";
import { admonitions } from "./admonitions.ts";
import { isKrokiType } from "./diagram-key.ts";
import { parseFrontmatter } from "./frontmatter.ts";
import { escapeHtml, highlightCode } from "./highlight-code.ts";
import { htmlToText, sanitizedHtmlToText, sanitizePage } from "./sanitize-page.ts";

export type RenderOptions = {
  /** Site URL for a link written in the page (relative like "../guide/setup.md#x", or absolute); called for every <a href> but a bare "#fragment". */
  link: (href: string) => string;
  /** Site URL for an image source written in the page. */
  image: (src: string) => string;
  /** URL of a rendered diagram for a fenced code block whose language is a Kroki type, or null: diagrams off (render as a code block). */
  diagram: ((type: string, source: string) => string) | null;
};

export type Heading = { depth: number; text: string; id: string };

export type RenderedPage = {
  /** Sanitized HTML of the body (no frontmatter). */
  html: string;
  /** Frontmatter `title`, else the first h1's text, else the file name without .md. */
  title: string;
  frontmatter: Record<string, unknown>;
  /** h2..h4, for a table of contents. */
  headings: Heading[];
  /** Plain text of the page for full-text search (no markup). */
  text: string;
};

const TOC_DEPTHS = { min: 2, max: 4 };

/** Renders one documentation page: GFM, highlighted code, admonitions, diagrams, heading anchors, then sanitized. */
export function renderMarkdown(markdown: string, fileName: string, options: RenderOptions): RenderedPage {
  const { data, body } = parseFrontmatter(markdown);
  // github-slugger numbers repeats (`x`, `x-1`) per page, as GitHub does.
  const slugger = new GithubSlugger();
  const headings: Heading[] = [];
  let firstH1: string | undefined;
  // Highlighted code joins the page after sanitizing, in place of a marker the author cannot guess:
  // highlightCode's output is checked to be text and spans, and sending thousands of hljs spans through
  // sanitize-html took about a third of a code-heavy page's render time.
  const nonce = crypto.randomUUID();
  const codeBlocks: string[] = [];

  const marked = new Marked(
    { gfm: true, async: false },
    { extensions: [admonitions()] },
    {
      renderer: {
        heading({ tokens, depth }: Tokens.Heading) {
          const inner = this.parser.parseInline(tokens);
          const text = htmlToText(inner);
          const id = slugger.slug(text) || slugger.slug("section");
          if (depth === 1) firstH1 ??= text;
          if (depth >= TOC_DEPTHS.min && depth <= TOC_DEPTHS.max) headings.push({ depth, text, id });
          return `<h${depth} id="${escapeHtml(id)}">${inner}<a class="anchor" href="#${escapeHtml(id)}" aria-label="Link to this section">#</a></h${depth}>\n`;
        },
        code({ text, lang }: Tokens.Code) {
          const language = (lang ?? "").trim().split(/\s+/, 1)[0]!.toLowerCase();
          if (options.diagram && isKrokiType(language)) {
            return `<p><img class="diagram" src="${escapeHtml(options.diagram(language, text))}" alt="${language} diagram"></p>\n`;
          }
          const languageClass = /^[\w+#.-]+$/.test(language) ? ` language-${language}` : "";
          return `<pre><code class="hljs${languageClass}">${nonce}:${codeBlocks.push(highlightCode(text, language)) - 1}</code></pre>\n`;
        },
      },
    },
  );

  const html = sanitizePage(marked.parse(body, { async: false }), options).replace(
    new RegExp(`${nonce}:(\\d+)`, "g"),
    (_, index: string) => codeBlocks[Number(index)]!,
  );
  return { html, title: resolveTitle(data, firstH1, fileName), frontmatter: data, headings, text: sanitizedHtmlToText(html) };
}

function resolveTitle(frontmatter: Record<string, unknown>, firstH1: string | undefined, fileName: string): string {
  const title = frontmatter.title;
  if ((typeof title === "string" || typeof title === "number") && String(title).trim()) return String(title).trim();
  if (firstH1) return firstH1;
  return (fileName.split(/[\\/]/).pop() ?? fileName).replace(/\.md$/i, "");
}
