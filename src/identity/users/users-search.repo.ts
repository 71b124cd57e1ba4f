import type { Db } from "../../db/client.ts";
import type { UserRow } from "./users.table.ts";

/**
 * The admin's user search (issue 43): prefixes, each a range on an index, so a keystroke costs the
 * same with 100 users as with a million. A user matches when the words typed start their username,
 * their email address, their email's domain (typed from its "@"), their name or its last word.
 * The indexes: username and email's unique ones, and migration 0037's on these expressions.
 */
const KEYS = [
  { key: "username", fold: "unicode" },
  { key: "email", fold: "unicode" },
  { key: "substr(email, instr(email, '@'))", fold: "unicode" },
  // SQLite's lower() folds ASCII letters only: the text is folded the same way (foldAscii).
  { key: "lower(name)", fold: "ascii" },
  { key: "lower(substr(name, length(rtrim(name, replace(name, ' ', ''))) + 1))", fold: "ascii" },
] as const;

/** Beyond this many matches the total is "at least", so counting never walks more than a few thousand index entries. */
export const COUNT_CAP = 1000;

const COLUMNS = "id, username, email, name, role, email_verified AS emailVerified, disabled_at AS disabledAt, created_at AS createdAt";
/** Above every character a prefix can be followed by: [p, p + TOP) holds exactly the keys starting with p. */
const TOP = "\u{10FFFF}";

const foldAscii = (q: string) => q.replace(/[A-Z]+/g, (s) => s.toLowerCase());
/** Key i lies in the range of its prefix: parameters ?(2i+1) and ?(2i+2). */
const inRange = (i: number) => `${KEYS[i]?.key} >= ?${2 * i + 1} AND ${KEYS[i]?.key} < ?${2 * i + 2}`;
/** Matches by key i and by none before it: each user is listed (and counted) once, under its first match. */
const firstMatch = (i: number) => [inRange(i), ...KEYS.slice(0, i).map((_, j) => `NOT (${inRange(j)})`)].join(" AND ");

function bounds(q: string): string[] {
  const folded = { unicode: q.toLowerCase(), ascii: foldAscii(q) };
  return KEYS.flatMap(({ fold }) => [folded[fold], folded[fold] + TOP]);
}

type SearchRow = Pick<UserRow, "id" | "username" | "email" | "name" | "role" | "emailVerified" | "disabledAt" | "createdAt">;

/**
 * One page of the users matching `q` (not empty): those matching by username first (by username),
 * then by email, domain, name and last word, each in its key's order. The branches are read
 * lazily, each through its index, so a page costs about `offset + limit` index steps per branch.
 */
export function searchUserRows(db: Db, q: string, limit: number, offset: number): SearchRow[] {
  const n = 2 * KEYS.length;
  // No branch needs more than the page's end (?n+1); the page is ?n+2 rows from ?n+3.
  const branches = KEYS.map((k, i) => `SELECT * FROM (SELECT ${COLUMNS} FROM users WHERE ${firstMatch(i)} ORDER BY ${k.key} LIMIT ?${n + 1})`);
  return (
    db.$client
      .query<Omit<SearchRow, "emailVerified"> & { emailVerified: number }, (string | number)[]>(
        `${branches.join(" UNION ALL ")} LIMIT ?${n + 2} OFFSET ?${n + 3}`,
      )
      .all(...bounds(q), offset + limit, limit, offset)
      // SQLite's boolean is 0 or 1: read as drizzle reads `email_verified` (issue 44).
      .map((row) => ({ ...row, emailVerified: row.emailVerified === 1 }))
  );
}

/**
 * How many users match `q`, counted up to COUNT_CAP: `capped` when more do. Branch by branch, each
 * stopping once the running total passes the cap; a later branch skips only users an earlier one
 * counted, so no count walks more than about twice the cap.
 */
export function countUserMatches(db: Db, q: string): { total: number; capped: boolean } {
  const params = bounds(q);
  let total = 0;
  for (const i of KEYS.keys()) {
    // Branch i reads the bounds of keys 0..i, and its room is the parameter after them.
    const used = params.slice(0, 2 * i + 2);
    const sql = `SELECT count(*) AS n FROM (SELECT 1 FROM users WHERE ${firstMatch(i)} LIMIT ?${used.length + 1})`;
    total += db.$client.query<{ n: number }, (string | number)[]>(sql).get(...used, COUNT_CAP + 1 - total)?.n ?? 0;
    if (total > COUNT_CAP) return { total: COUNT_CAP, capped: true };
  }
  return { total, capped: false };
}

/** Every user, counted: SQLite walks the smallest index's pages (about 0.1 ms at 100,000 users), once per opening of the list, not per keystroke. */
export const countAllUsers = (db: Db): number => db.$client.query<{ n: number }, []>("SELECT count(*) AS n FROM users").get()?.n ?? 0;
