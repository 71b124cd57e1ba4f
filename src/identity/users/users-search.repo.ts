import { type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import type { UserRow } from "./users.table.ts";

/**
 * The admin's user search (issue 43): prefixes, each a range on an index, so a keystroke costs the
 * same with 100 users as with a million. A user matches when the words typed start their username,
 * their email address, their email's domain (typed from its "@"), their name or its last word.
 * The indexes: username and email's unique ones, and migration 0037's on these expressions.
 */
const keysOf = (domain: string) =>
  [
    { key: "username", fold: "unicode" },
    { key: "email", fold: "unicode" },
    { key: domain, fold: "unicode" },
    // lower() folds ASCII letters only (SQLite's, and PostgreSQL's under the column's "C"
    // collation): the text is folded the same way (foldAscii).
    { key: "lower(name)", fold: "ascii" },
    { key: "lower(substr(name, length(rtrim(name, replace(name, ' ', ''))) + 1))", fold: "ascii" },
  ] as const;
type Key = ReturnType<typeof keysOf>[number];

// SQLite's instr is PostgreSQL's strpos: each dialect's index is on its own spelling (migrations-pg).
const KEYS: Record<Db["$dialect"], readonly Key[]> = {
  sqlite: keysOf("substr(email, instr(email, '@'))"),
  postgres: keysOf("substr(email, strpos(email, '@'))"),
};

/** Beyond this many matches the total is "at least", so counting never walks more than a few thousand index entries. */
export const COUNT_CAP = 1000;

const COLUMNS = 'id, username, email, name, role, email_verified AS "emailVerified", disabled_at AS "disabledAt", created_at AS "createdAt"';
/** Above every character a prefix can be followed by: [p, p + TOP) holds exactly the keys starting with p. */
const TOP = "\u{10FFFF}";

const foldAscii = (q: string) => q.replace(/[A-Z]+/g, (s) => s.toLowerCase());

/** The keys of the store's dialect, and the bounds of `q`'s range on each: 2i and 2i+1 for key i. */
function rangesOf(db: Db, q: string) {
  const keys = KEYS[db.$dialect];
  const folded = { unicode: q.toLowerCase(), ascii: foldAscii(q) };
  return { keys, bounds: keys.flatMap(({ fold }) => [folded[fold], folded[fold] + TOP]) };
}
type Ranges = ReturnType<typeof rangesOf>;

/** Key i lies in the range of its prefix. */
const inRange = ({ keys, bounds }: Ranges, i: number) => {
  const key = sql.raw(keys[i]?.key ?? "");
  return sql`${key} >= ${bounds[2 * i]} AND ${key} < ${bounds[2 * i + 1]}`;
};
/** Matches by key i and by none before it: each user is listed (and counted) once, under its first match. */
const firstMatch = (r: Ranges, i: number): SQL => sql.join([inRange(r, i), ...r.keys.slice(0, i).map((_, j) => sql`NOT (${inRange(r, j)})`)], sql` AND `);

type SearchRow = Pick<UserRow, "id" | "username" | "email" | "name" | "role" | "emailVerified" | "disabledAt" | "createdAt">;
type FoundRow = Omit<SearchRow, "emailVerified"> & { emailVerified: number };

/**
 * One page of the users matching `q` (not empty): those matching by username first (by username),
 * then by email, domain, name and last word, each in its key's order. The branches are read
 * lazily, each through its index, so a page costs about `offset + limit` index steps per branch.
 */
export async function searchUserRows(db: Db, q: string, limit: number, offset: number): Promise<SearchRow[]> {
  const r = rangesOf(db, q);
  const rows = db.$dialect === "postgres" ? await searchPostgres(db, r, limit, offset) : await searchSqlite(db, r, limit, offset);
  // SQLite's boolean is 0 or 1: read as drizzle reads `email_verified` (issue 44).
  return rows.map((row) => ({ ...row, emailVerified: row.emailVerified === 1 }));
}

/** SQLite reads UNION ALL's branches in turn, each in its subquery's order, and stops at the page's end. */
function searchSqlite(db: Db, r: Ranges, limit: number, offset: number): Promise<FoundRow[]> {
  // No branch needs more than the page's end.
  const branches = r.keys.map(
    (k, i) => sql`SELECT * FROM (SELECT ${sql.raw(COLUMNS)} FROM users WHERE ${firstMatch(r, i)} ORDER BY ${sql.raw(k.key)} LIMIT ${offset + limit})`,
  );
  return db.all(sql`${sql.join(branches, sql` UNION ALL `)} LIMIT ${limit} OFFSET ${offset}`);
}

/**
 * PostgreSQL promises no order for UNION ALL: the page is sorted by branch and by each row's
 * place in its branch, out of at most `offset + limit` rows per branch, each read lazily through
 * its index (ROWS: numbering a row does not wait for the other users with the same key).
 */
async function searchPostgres(db: Db, r: Ranges, limit: number, offset: number): Promise<FoundRow[]> {
  const branches = r.keys.map((k, i) => {
    const key = sql.raw(k.key);
    return sql`(SELECT ${sql.raw(String(i))} AS branch, row_number() OVER (ORDER BY ${key} ROWS UNBOUNDED PRECEDING) AS place, ${sql.raw(COLUMNS)}
      FROM users WHERE ${firstMatch(r, i)} ORDER BY ${key} LIMIT ${offset + limit})`;
  });
  const rows = await db.all<FoundRow & { branch: number; place: number }>(
    sql`SELECT * FROM (${sql.join(branches, sql` UNION ALL `)}) AS found ORDER BY branch, place LIMIT ${limit} OFFSET ${offset}`,
  );
  return rows.map(({ branch: _branch, place: _place, ...row }) => row);
}

/**
 * How many users match `q`, counted up to COUNT_CAP: `capped` when more do. Branch by branch, each
 * stopping once the running total passes the cap; a later branch skips only users an earlier one
 * counted, so no count walks more than about twice the cap.
 */
export async function countUserMatches(db: Db, q: string): Promise<{ total: number; capped: boolean }> {
  const r = rangesOf(db, q);
  let total = 0;
  for (const i of r.keys.keys()) {
    // Branch i reads the bounds of keys 0..i; its room is what the cap leaves.
    const counted = await db.all<{ n: number }>(
      sql`SELECT count(*) AS n FROM (SELECT 1 FROM users WHERE ${firstMatch(r, i)} LIMIT ${COUNT_CAP + 1 - total}) AS matched`,
    );
    total += counted[0]?.n ?? 0;
    if (total > COUNT_CAP) return { total: COUNT_CAP, capped: true };
  }
  return { total, capped: false };
}

/** Every user, counted: SQLite walks the smallest index's pages (about 0.1 ms at 100,000 users), once per opening of the list, not per keystroke. */
export const countAllUsers = async (db: Db): Promise<number> => (await db.all<{ n: number }>(sql`SELECT count(*) AS n FROM users`))[0]?.n ?? 0;
