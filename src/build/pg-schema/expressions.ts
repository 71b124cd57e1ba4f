/**
 * SQLite expressions of the schema (index keys, partial index conditions, defaults) read and
 * translated to PostgreSQL. Only what is known to mean the same on both is translated; anything
 * else stops the generator, so a new function or operator gets a decision instead of a guess.
 */

type Token = { kind: "word" | "quoted" | "string" | "number" | "symbol" | "space"; text: string };

const PATTERNS: [Token["kind"], RegExp][] = [
  ["space", /^\s+/],
  ["quoted", /^(`[^`]*`|"(?:[^"]|"")*"|\[[^\]]*\])/],
  ["string", /^'(?:[^']|'')*'/],
  ["number", /^\d+(\.\d+)?/],
  ["word", /^[A-Za-z_][A-Za-z0-9_]*/],
  ["symbol", /^(\|\||<=|>=|<>|!=|==|[=<>+\-*/%(),;])/],
];

export function tokenize(sql: string): Token[] {
  const tokens: Token[] = [];
  let rest = sql;
  while (rest.length > 0) {
    const found = PATTERNS.map(([kind, re]) => ({ kind, match: re.exec(rest) })).find((p) => p.match);
    if (!found?.match) throw new Error(`cannot read SQL at: ${rest.slice(0, 30)}`);
    tokens.push({ kind: found.kind, text: found.match[0] });
    rest = rest.slice(found.match[0].length);
  }
  return tokens;
}

/** An identifier's name without its quotes (`x`, "x", [x]). */
export const unquote = (t: Token) => (t.kind === "quoted" ? t.text.slice(1, -1).replaceAll('""', '"') : t.text);
export const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * SQLite function → PostgreSQL function of the same result for the arguments this schema passes.
 * lower/upper: SQLite folds ASCII letters only, and so does PostgreSQL on a column of collation
 * "C" (every text column of the PostgreSQL schema: render.ts), so keys and the app's folded search
 * bounds (identity/users/users-search.repo.ts) agree. substr: the same for a start >= 0 (SQLite
 * counts a negative start from the end); the schema's starts are instr() or length() + 1.
 * instr(x, y) is strpos(x, y): the 1-based position of y in x, 0 when absent.
 */
const FUNCTIONS: Record<string, string> = {
  lower: "lower",
  upper: "upper",
  substr: "substr",
  length: "length",
  rtrim: "rtrim",
  ltrim: "ltrim",
  replace: "replace",
  instr: "strpos",
  coalesce: "coalesce",
  ifnull: "coalesce",
};
const KEYWORDS = new Set(["and", "or", "not", "null"]);

/**
 * The PostgreSQL text of a SQLite expression over `columns` (none for a default). SQLite's
 * true/false are the integers 1/0 (the PostgreSQL columns that hold them are bigint).
 */
export function toPostgres(sql: string, columns: ReadonlySet<string>): string {
  const tokens = tokenize(sql);
  const next = (i: number) => tokens.slice(i + 1).find((t) => t.kind !== "space");
  return tokens
    .map((t, i) => {
      const lower = t.text.toLowerCase();
      if (t.kind === "quoted") {
        if (!columns.has(unquote(t))) throw new Error(`${sql}: ${t.text} is not a column here`);
        return quoteIdent(unquote(t));
      }
      if (t.kind === "symbol") return t.text === "==" ? "=" : t.text;
      if (t.kind !== "word") return t.text;
      if (next(i)?.text === "(") {
        const fn = FUNCTIONS[lower];
        if (!fn) throw new Error(`${sql}: no PostgreSQL translation for the SQLite function ${t.text}()`);
        return fn;
      }
      if (lower === "true" || lower === "false") return lower === "true" ? "1" : "0";
      if (KEYWORDS.has(lower)) return lower.toUpperCase();
      if (lower === "is") {
        const after = tokens.slice(i + 1).filter((x) => x.kind !== "space");
        const operand = after[0]?.text.toLowerCase() === "not" ? after[1] : after[0];
        if (operand?.text.toLowerCase() !== "null") throw new Error(`${sql}: SQLite's IS between values has no translation here`);
        return "IS";
      }
      if (columns.has(t.text)) return quoteIdent(t.text);
      throw new Error(`${sql}: no PostgreSQL translation for ${t.text}`);
    })
    .join("");
}

/** Splits a token list at its top-level commas. */
export function splitTopLevel(tokens: Token[]): Token[][] {
  const parts: Token[][] = [[]];
  let depth = 0;
  for (const t of tokens) {
    if (t.text === "(") depth++;
    if (t.text === ")") depth--;
    if (t.text === "," && depth === 0) parts.push([]);
    else parts.at(-1)?.push(t);
  }
  return parts;
}

export const joinTokens = (tokens: Token[]) =>
  tokens
    .map((t) => t.text)
    .join("")
    .trim();
