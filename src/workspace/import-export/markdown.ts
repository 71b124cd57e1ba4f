import { parseFailed } from "./import-export.errors.ts";
import { DEFAULT_SET_NAME, importedLine, SET_DEFAULTS } from "./import-rules.ts";
import { escapeHeading, formatComment, readCommentLine, splitDue, titleWithDue, unescapeText } from "./markdown-text.ts";
import type { SetSnapshot, TreeComment, TreeTodo } from "./tree.ts";

export type MarkdownOptions = {
  includeComments: boolean;
  /** Stamps a pasted quote that carries no `(date)` header; without it such a comment gets "". */
  now?: Date;
};

const INDENT = "  ";

const HEADING = /^#{1,6}(?:[ \t]+(.*))?$/s;
const THEMATIC_BREAK = /^([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const BULLET = /^(?:[-*+]|\d{1,9}[.)])(?:[ \t]+(.*))?$/s;
// GFM task list item: `[ ]`, `[x]` or `[X]`, then whitespace, then the title. (`s`: a title may
// hold U+2028, which `.` would otherwise stop at.)
const CHECKBOX = /^\[([ xX])\](?:[ \t]+(.*))?$/s;
const QUOTE = /^> ?(.*)$/s;

/** A GFM task list: `# name`, then `- [ ] title` / `- [x] title (due: 2026-12-05)`, two spaces per level. */
export function exportMarkdown(set: SetSnapshot, { includeComments }: { includeComments: boolean }): string {
  const lines = [`# ${escapeHeading(set.name)}`, ""];
  const writeTodos = (todos: TreeTodo[], pad: string) => {
    for (const todo of todos) {
      lines.push(`${pad}- [${todo.completed ? "x" : " "}] ${titleWithDue(todo)}`);
      // A blank line between two comments keeps them separate quotes when rendered.
      const comments = includeComments ? (todo.comments ?? []) : [];
      comments.forEach((comment, i) => {
        if (i > 0) lines.push("");
        lines.push(...formatComment(comment).map((line) => pad + INDENT + line));
      });
      writeTodos(todo.children, pad + INDENT);
    }
  };
  writeTodos(set.todos, "");
  return `${lines.join("\n")}\n`;
}

/** Columns of leading whitespace, a tab advancing to the next multiple of four (CommonMark 2.2). */
function measureIndent(line: string): number {
  let column = 0;
  for (const char of line) {
    if (char === " ") column += 1;
    else if (char === "\t") column += 4 - (column % 4);
    else break;
  }
  return column;
}

function readTodo(item: string, includeComments: boolean): TreeTodo {
  const box = CHECKBOX.exec(item);
  const { title: text, ...due } = splitDue(box ? (box[2] ?? "") : item);
  const title = importedLine(unescapeText(text), "a title");
  if (title === "") throw parseFailed("a list item has no title");
  const completed = box !== null && box[1] !== " ";
  return includeComments ? { title, completed, ...due, comments: [], children: [] } : { title, completed, ...due, children: [] };
}

/**
 * The inverse of exportMarkdown, tolerant of pasted lists: `-`, `*`, `+` or `1.` bullets, any
 * indentation (an item is the child of the nearest earlier item indented less), items without a
 * checkbox (incomplete), blank lines and CRLF. Other text is ignored. Spec 2 section 4.1:
 * "Markdown default name is `Imported Set`": a heading (the one an export writes included) never
 * names the set, which `setName` does; it only ends the nesting of the items above it.
 */
export function parseMarkdown(content: string, { includeComments, now }: MarkdownOptions): SetSnapshot {
  let headings = 0;
  const roots: TreeTodo[] = [];
  const open: { indent: number; todo: TreeTodo }[] = [];
  let comment: TreeComment | undefined;
  for (const line of content.split(/\r\n|\n|\r/)) {
    const indent = measureIndent(line);
    const text = line.trim();
    const quote = QUOTE.exec(line.trimStart());
    if (quote) {
      // Comments belong to the nearest item indented less than the quote, else to the last item.
      const owner = open.findLast((entry) => entry.indent < indent)?.todo ?? open.at(-1)?.todo;
      if (!includeComments || !owner) continue;
      const next = readCommentLine(quote[1] ?? "", comment, now?.toISOString() ?? "");
      if (next !== comment) owner.comments?.push(next);
      comment = next;
      continue;
    }
    comment = undefined;
    if (text === "" || THEMATIC_BREAK.test(text)) continue;
    if (HEADING.test(text)) {
      headings += 1;
      open.length = 0;
      continue;
    }
    const bullet = BULLET.exec(text);
    if (!bullet) continue;
    const todo = readTodo(bullet[1] ?? "", includeComments);
    while ((open.at(-1)?.indent ?? -1) >= indent) open.pop();
    (open.at(-1)?.todo.children ?? roots).push(todo);
    open.push({ indent, todo });
  }
  // A document with a heading and no items is an empty list; one with neither is not a list at all.
  if (headings === 0 && roots.length === 0) throw parseFailed("no heading and no list items");
  return { name: DEFAULT_SET_NAME, ...SET_DEFAULTS, todos: roots };
}
