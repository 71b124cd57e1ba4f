/**
 * drizzle's SQLite dialect writes `?` for each parameter; PostgreSQL numbers them `$1..$n`. A `?`
 * inside a string, a quoted identifier, a comment or a dollar-quoted body is text, not a parameter
 * (PostgreSQL manual 4.1: lexical structure).
 */

export type NumberedSql = { text: string; count: number };

/**
 * toNumberedPlaceholders remembering its answers (the same few hundred statements run all day), up
 * to `limit` texts: one per client, as it holds no state of its own.
 */
export function cachedNumbering(limit = 2000): (text: string) => NumberedSql {
  const cache = new Map<string, NumberedSql>();
  return (text) => {
    let done = cache.get(text);
    if (!done) {
      if (cache.size >= limit) cache.clear();
      done = toNumberedPlaceholders(text);
      cache.set(text, done);
    }
    return done;
  };
}

const QUESTION = 63; // ?
const QUOTE = 39; // '
const DOUBLE_QUOTE = 34; // "
const DOLLAR = 36; // $
const DASH = 45; // -
const SLASH = 47; // /
const STAR = 42; // *
const BACKSLASH = 92; // \

/** `text` with every `?` parameter numbered `$1..$n`, and n. */
export function toNumberedPlaceholders(text: string): NumberedSql {
  if (!text.includes("?")) return { text, count: 0 };
  let out = "";
  let from = 0;
  let count = 0;
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === QUESTION) {
      out += `${text.slice(from, i)}$${++count}`;
      from = ++i;
    } else if (c === QUOTE) i = endOfQuoted(text, i, QUOTE, isEscapeString(text, i));
    else if (c === DOUBLE_QUOTE) i = endOfQuoted(text, i, DOUBLE_QUOTE, false);
    else if (c === DASH && text.charCodeAt(i + 1) === DASH) i = endOf(text, "\n", i + 2);
    else if (c === SLASH && text.charCodeAt(i + 1) === STAR) i = endOfBlockComment(text, i);
    else if (c === DOLLAR && !isIdentChar(text.charCodeAt(i - 1))) i = endOfDollarQuote(text, i);
    else i++;
  }
  return { text: out + text.slice(from), count };
}

/** Letters, digits, `_`, `$` and anything beyond ASCII continue an identifier or keyword. */
function isIdentChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === DOLLAR || c >= 128;
}

/** `E'...'` (also `e'...'`), where a backslash escapes the next character. */
function isEscapeString(text: string, quote: number): boolean {
  const prev = text.charCodeAt(quote - 1);
  return (prev === 69 || prev === 101) && !isIdentChar(text.charCodeAt(quote - 2));
}

/** The index after the closing quote; a doubled quote is one quote character. Unterminated: the end. */
function endOfQuoted(text: string, open: number, quote: number, backslashEscapes: boolean): number {
  let i = open + 1;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (backslashEscapes && c === BACKSLASH) i += 2;
    else if (c !== quote) i++;
    else if (text.charCodeAt(i + 1) === quote) i += 2;
    else return i + 1;
  }
  return text.length;
}

function endOf(text: string, terminator: string, from: number): number {
  const at = text.indexOf(terminator, from);
  return at < 0 ? text.length : at + terminator.length;
}

/** Block comments nest in PostgreSQL (`/* a /* b *\/ c *\/` is one comment). */
function endOfBlockComment(text: string, open: number): number {
  let depth = 0;
  let i = open;
  while (i < text.length) {
    if (text.charCodeAt(i) === SLASH && text.charCodeAt(i + 1) === STAR) {
      depth++;
      i += 2;
    } else if (text.charCodeAt(i) === STAR && text.charCodeAt(i + 1) === SLASH) {
      i += 2;
      if (--depth === 0) return i;
    } else i++;
  }
  return text.length;
}

/** `$tag$ ... $tag$` (tag empty or an identifier not starting with a digit); `$1` and a lone `$` are not quotes. */
function endOfDollarQuote(text: string, open: number): number {
  const tag = /^\$(?:[A-Za-z_\u0080-\uffff][A-Za-z0-9_\u0080-\uffff]*)?\$/.exec(text.slice(open, open + 65))?.[0];
  if (!tag) return open + 1;
  return endOf(text, tag, open + tag.length);
}
