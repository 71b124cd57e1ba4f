import type { Token, TokenizerAndRendererExtension } from "marked";
import { escapeHtml } from "./highlight-code.ts";

// Docusaurus admonitions: `:::tip`, `:::tip Title` or `:::tip[Title]`, closed by a line of as many colons.
// Nesting works both ways Docusaurus allows: more colons on the outer fence, or the same count.
const KINDS = { note: "note", tip: "tip", info: "info", warning: "warning", caution: "warning", danger: "danger" } as const;
const TITLES = { note: "Note", tip: "Tip", info: "Info", warning: "Warning", caution: "Caution", danger: "Danger" } as const;
type Name = keyof typeof KINDS;

const OPENING = /^ {0,3}(:{3,})(note|tip|info|warning|caution|danger)(?:\[([^\]\n]*)\]|[ \t]+([^\n]*?))?[ \t]*(?:\n|$)/;
const OPENING_ANYWHERE = /^ {0,3}:{3,}(?:note|tip|info|warning|caution|danger)(?:[[ \t]|$)/m;
const CLOSING = /^ {0,3}(:{3,})[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

type AdmonitionToken = {
  type: "admonition";
  raw: string;
  kind: (typeof KINDS)[Name];
  title: string;
  titleTokens: Token[];
  tokens: Token[];
};

/** Where the body ends: the start and end offsets of the matching closing line, or the end of `src`. */
function findClosing(src: string, from: number, colons: number): { bodyEnd: number; end: number } {
  let depth = 0;
  let fence: string | null = null;
  for (let start = from, next = from; start < src.length; start = next) {
    // Each line with its newline, if it has one.
    const newline = src.indexOf("\n", start);
    next = newline === -1 ? src.length : newline + 1;
    const line = src.slice(start, next);
    const text = line.replace(/\n$/, "");
    // A `:::` line inside a fenced code block is code, not a fence of ours.
    const code = FENCE.exec(text);
    if (fence) {
      if (code && code[1]![0] === fence[0] && code[1]!.length >= fence.length && text.trim() === code[1]) fence = null;
      continue;
    }
    if (code) {
      fence = code[1]!;
      continue;
    }
    const close = CLOSING.exec(text);
    if (close && close[1]!.length === colons) {
      if (depth === 0) return { bodyEnd: start, end: start + line.length };
      depth--;
    } else if (OPENING.exec(line)?.[1]?.length === colons) depth++;
  }
  // An unclosed container runs to the end of its parent, as in remark-directive.
  return { bodyEnd: src.length, end: src.length };
}

/**
 * Boxes nest at most this deep; deeper `:::` lines stay text. Each open box scans the rest of its
 * parent for its closing line, so unbounded nesting of unclosed boxes would cost quadratic time and
 * the stack: bounded, a page of them stays linear.
 */
const MAX_DEPTH = 6;

/** The extension for one render: the depth of the boxes open is that render's own (two renders never share it). */
export const admonitions = (): TokenizerAndRendererExtension => {
  let depth = 0;
  return {
    name: "admonition",
    level: "block",
    // Called before each paragraph with the rest of the page: the cheap test keeps pages without boxes linear.
    start: (src) => (depth < MAX_DEPTH && src.includes(":::") ? OPENING_ANYWHERE.exec(src)?.index : undefined),
    tokenizer(src) {
      if (depth >= MAX_DEPTH) return undefined;
      const open = OPENING.exec(src);
      if (!open) return undefined;
      const name = open[2] as Name;
      const { bodyEnd, end } = findClosing(src, open[0].length, open[1]!.length);
      const token: AdmonitionToken = {
        type: "admonition",
        raw: src.slice(0, end),
        kind: KINDS[name],
        title: (open[3] ?? open[4] ?? "").trim() || TITLES[name],
        titleTokens: [],
        tokens: [],
      };
      // Content is laid out like a document's (paragraphs, not a list item's tight text).
      const top = this.lexer.state.top;
      this.lexer.state.top = true;
      depth++;
      try {
        this.lexer.blockTokens(src.slice(open[0].length, bodyEnd), token.tokens);
      } finally {
        depth--;
        this.lexer.state.top = top;
      }
      this.lexer.inline(token.title, token.titleTokens);
      return token;
    },
    renderer(generic) {
      const token = generic as unknown as AdmonitionToken;
      const title = token.titleTokens.length > 0 ? this.parser.parseInline(token.titleTokens) : escapeHtml(token.title);
      return `<div class="admonition admonition-${token.kind}"><p class="admonition-title">${title}</p>\n${this.parser.parse(token.tokens)}</div>\n`;
    },
    childTokens: ["titleTokens", "tokens"],
  };
};
