import { describe, expect, it } from "bun:test";
import fc from "fast-check";
import { toNumberedPlaceholders } from "../../../src/db/pg/placeholders.ts";
import { pgSkipReason } from "../../helpers/postgres.ts";
import { usePostgres } from "./fixture.ts";

// Characters that end or open strings, identifiers, comments and dollar quotes, and `?` itself.
const tricky = fc.constantFrom("a", "Z", "0", " ", "?", "'", '"', "$", "-", "*", "/", "\\", "\n", "é", "€", "_", ";", "E");
const text = fc.array(tricky, { maxLength: 12 }).map((chars) => chars.join(""));

/** A piece of SQL that holds no parameter, however many `?` it contains. */
const opaque = fc.oneof(
  fc.stringMatching(/^[a-z_][a-z0-9_$]{0,6}$/), // a keyword or identifier, `$` included
  fc.constantFrom("(", ")", ",", "=", "::", "+", ">=", ";", "$1", "$12"),
  text.map((t) => `'${t.replaceAll("'", "''")}'`),
  text.map((t) => `E'${t.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'`),
  text.map((t) => `"${t.replaceAll('"', '""')}"`),
  text.map((t) => `--${t.replaceAll("\n", " ")}\n`),
  fc.tuple(text, text).map(([a, b]) => `/*${a.replaceAll("*", "+")} /* ${b.replaceAll("*", "+")} */ ? */`),
  fc
    .tuple(fc.constantFrom("", "q", "tag_1"), text)
    .filter(([tag, t]) => !`${t}$`.includes(`$${tag}$`))
    .map(([tag, t]) => `$${tag}$${t}$${tag}$`),
);
const piece = fc.oneof({ arbitrary: opaque, weight: 3 }, { arbitrary: fc.constant(null), weight: 1 });

describe("`?` placeholders become $1..$n (drizzle's SQLite dialect on PostgreSQL)", () => {
  it("numbers drizzle's statements", () => {
    expect(toNumberedPlaceholders('select "id", "name" from "users" where "users"."id" = ? limit ?')).toEqual({
      text: 'select "id", "name" from "users" where "users"."id" = $1 limit $2',
      count: 2,
    });
  });

  it("numbers every `?` outside strings, quoted identifiers, comments and dollar quotes, in order", () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 16 }), (pieces) => {
        let n = 0;
        const input = pieces.map((p) => p ?? "?").join(" ");
        const expected = pieces.map((p) => p ?? `$${++n}`).join(" ");
        expect(toNumberedPlaceholders(input)).toEqual({ text: expected, count: n });
      }),
      { numRuns: 2000 },
    );
  });

  it("leaves a text without `?` as it is, whatever it holds", () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        const free = s.replaceAll("?", "");
        expect(toNumberedPlaceholders(free)).toEqual({ text: free, count: 0 });
      }),
    );
  });

  it("reads what PostgreSQL reads: an E string's escaped quote, nested comments, `$` inside identifiers", () => {
    expect(toNumberedPlaceholders("select E'\\'?', ? from t").text).toBe("select E'\\'?', $1 from t");
    expect(toNumberedPlaceholders("select 'it''s ?', ?").text).toBe("select 'it''s ?', $1");
    expect(toNumberedPlaceholders("/* a /* ? */ ? */ select ?").text).toBe("/* a /* ? */ ? */ select $1");
    expect(toNumberedPlaceholders("select a$b$, ? from t").text).toBe("select a$b$, $1 from t");
    expect(toNumberedPlaceholders("select $x$?$x$, ?").text).toBe("select $x$?$x$, $1");
    expect(toNumberedPlaceholders("select 'unterminated ?").count).toBe(0);
  });
});

describe.skipIf(pgSkipReason !== null)("the numbered statement on a real server", () => {
  const pg = usePostgres();

  it("binds each parameter where its `?` stood and leaves every `?` in a literal or comment alone", async () => {
    const client = pg.open();
    const value = fc.string({ unit: "grapheme", maxLength: 12 }).map((s) => s.replaceAll("\0", ""));
    await fc.assert(
      fc.asyncProperty(value, value, value, fc.constantFrom("", "q"), async (literal, first, second, tag) => {
        const dollar = `${literal}$`.includes(`$${tag}$`) ? "x" : literal;
        const sql = `select ? as first, '${literal.replaceAll("'", "''")}' as literal, /* ? */ $${tag}$${dollar}$${tag}$ as dollar, ? as "se?ond" -- ?\n`;
        const { rows } = await client.query(sql, [first, second]);
        expect(rows).toEqual([{ first, literal, dollar, "se?ond": second }]);
      }),
      { numRuns: 100 },
    );
  });
});
