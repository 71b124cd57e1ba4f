import { isDueDate, isDueTime } from "../../contract/due-dates.ts";
import { parseFailed } from "./import-export.errors.ts";
import type { TreeComment, TreeTodo } from "./tree.ts";

// CommonMark section 2.4: a backslash before ASCII punctuation escapes it; before anything else
// it is a literal backslash (so a pasted `C:\temp` keeps its backslash).
const ESCAPED = /\\([!-/:-@[-`{-~])/g;
// Characters that would start emphasis, code, links, HTML or strikethrough when rendered.
const INLINE = /[\\`*_[\]<~]/g;
const ENTITY = /&(?=#?[A-Za-z0-9]+;)/g;

/** One line of text: line breaks inside a title or name become spaces, ends trimmed. */
const flatten = (text: string) => text.replace(/\s*[\r\n]+\s*/g, " ").trim();

/**
 * A title as it follows `- [ ] `: inline syntax escaped, and whatever would start a block (`>`, or
 * `#`, `-`, `+`, `1.` before a space) if the line were read without its checkbox.
 */
export function escapeTitle(title: string): string {
  const inline = flatten(title).replace(INLINE, "\\$&").replace(ENTITY, "\\&");
  return inline.replace(/^(?:>|[#+-](?=[ \t]|$))/, "\\$&").replace(/^(\d+)([.)])(?=[ \t]|$)/, "$1\\$2");
}

// A todo's due ends its line: ` (due: 2026-12-05)` or ` (due: 2026-12-05 14:30)`. Anything
// ending in `(due:...)` is read as one, strictly; a title that itself ends so is written `\(due:`.
const DUE_LIKE = /(^|[ \t])(?=\(due:[^()]*\)$)/;
const DUE_SUFFIX = /[ \t]\(due:([^()]*)\)$/;
const DUE_TEXT = /^ (\d{4}-\d{2}-\d{2})(?: (\d{2}:\d{2}))?$/;

/** A title with its due, as the text after `- [ ] `. */
export function titleWithDue(todo: Pick<TreeTodo, "title" | "dueDate" | "dueTime">): string {
  const title = escapeTitle(todo.title).replace(DUE_LIKE, "$1\\");
  return todo.dueDate === undefined ? title : `${title} (due: ${todo.dueDate}${todo.dueTime === undefined ? "" : ` ${todo.dueTime}`})`;
}

/** An item's text split into its title text (still escaped) and its due, refusing a malformed due. */
export function splitDue(text: string): { title: string; dueDate?: string; dueTime?: string } {
  const suffix = DUE_SUFFIX.exec(text);
  if (!suffix) return { title: text };
  const [, dueDate, dueTime] = DUE_TEXT.exec(suffix[1] ?? "") ?? [];
  if (!isDueDate(dueDate) || (dueTime !== undefined && !isDueTime(dueTime)))
    throw parseFailed(`"${text}": a due is written (due: YYYY-MM-DD) or (due: YYYY-MM-DD HH:MM), a real date and a 24-hour time`);
  return { title: text.slice(0, suffix.index), dueDate, ...(dueTime === undefined ? {} : { dueTime }) };
}

/** A set name as it follows `# `: also every `#`, so none can read as a closing sequence. */
export function escapeHeading(name: string): string {
  return flatten(name).replace(INLINE, "\\$&").replace(ENTITY, "\\&").replaceAll("#", "\\#");
}

export const unescapeText = (text: string) => text.replace(ESCAPED, "$1").trim();

const ISO_DATE = String.raw`\d{4}-\d{2}-\d{2}T[0-9:.]+(?:Z|[+-]\d{2}:?\d{2})`;
// `**author** (date): first line`, or `(date): first line` for a comment with no author.
const HEADER = new RegExp(String.raw`^(?:\*\*((?:[^\\*]|\\.)*)\*\* )?\((${ISO_DATE})\):(?: (.*))?$`, "s");

const escapeAuthor = (author: string) => flatten(author).replace(/[\\*]/g, "\\$&");
// A body line that would read as a header (or starts with the escape itself) gets one backslash.
const escapeBodyLine = (line: string) => (HEADER.test(line) || line.startsWith("\\") ? `\\${line}` : line);

/** The quote lines of one comment, `>` included; an empty line is a bare `>`. */
export function formatComment(comment: TreeComment): string[] {
  const [first = "", ...rest] = comment.body.replace(/\r\n?/g, "\n").split("\n");
  const author = comment.author === null ? "" : `**${escapeAuthor(comment.author)}** `;
  const header = `${author}(${comment.createdAt}):${first === "" ? "" : ` ${first}`}`;
  return [header, ...rest.map(escapeBodyLine)].map((line) => (line === "" ? ">" : `> ${line}`));
}

/**
 * Reads one quote line (the text after `> `) and returns the comment now open: a header starts a
 * new one; any other line extends `open`, or starts an author-less comment stamped `createdAt`.
 */
export function readCommentLine(line: string, open: TreeComment | undefined, createdAt: string): TreeComment {
  const header = HEADER.exec(line);
  if (header) {
    const author = header[1] === undefined ? null : header[1].replace(/\\(.)/g, "$1");
    return { author, createdAt: header[2] ?? "", body: header[3] ?? "" };
  }
  const text = line.startsWith("\\") ? line.slice(1) : line;
  if (!open) return { author: null, createdAt, body: text };
  open.body += `\n${text}`;
  return open;
}
