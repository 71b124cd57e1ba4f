import { describe, expect, it } from "bun:test";
import { readFileSync } from "node:fs";
import { BASELINE_FILE, generateBaseline, JOURNAL_FILE, renderJournal } from "../../../src/build/pg-schema.ts";
import { compareSchemas } from "../../../src/build/pg-schema/compare.ts";
import { toPostgres } from "../../../src/build/pg-schema/expressions.ts";
import { migratedSchema } from "../../../src/build/pg-schema/migrated.ts";
import type { Table } from "../../../src/build/pg-schema/model.ts";

describe("the PostgreSQL baseline (npm run db:generate:pg)", () => {
  it("is what the generator writes from the table files today", async () => {
    const { sql } = await generateBaseline();
    expect(readFileSync(BASELINE_FILE, "utf8")).toBe(sql);
  });

  it("takes from the migrations only the expression indexes drizzle cannot spell", async () => {
    const { notes } = await generateBaseline();
    expect(notes.map((n) => n.split(" (")[0])).toEqual([
      "users: index users_email_domain_idx",
      "users: index users_last_word_prefix_idx",
      "users: index users_name_prefix_idx",
    ]);
  });

  it("has a journal listing every migration file in order", () => {
    expect(readFileSync(JOURNAL_FILE, "utf8")).toBe(renderJournal());
    expect(JSON.parse(renderJournal()).migrations).toEqual([
      "0000_baseline",
      "0001_triggers",
      "0002_docs_search",
      "0003_integer_keys",
      "0004_cluster",
      "0005_docs_search_unaccent",
    ]);
  });

  it("refuses table files that differ from the migrations, naming the difference", () => {
    const migrated = migratedSchema();
    try {
      const described = structuredClone(migrated.tables);
      const users = described.find((t) => t.name === "users") as Table;
      users.columns = users.columns.map((c) => (c.name === "disabled_at" ? { ...c, type: "text" as const } : c));
      users.indexes = [...users.indexes, { name: "users_extra_idx", unique: false, keys: [{ column: "role" }], where: null }];
      const { mismatches } = compareSchemas(described, migrated.tables, migrated.sameValue);
      expect(mismatches).toEqual([
        "users: disabled_at is text in the table file, integer in the migrations",
        "users: index users_extra_idx is in the table file only",
      ]);
    } finally {
      migrated.close();
    }
  });
});

describe("SQLite expressions in PostgreSQL", () => {
  const columns = new Set(["name", "email", "legacy"]);

  it("translates the functions the schema uses, and SQLite's booleans as the integers they are", () => {
    expect(toPostgres("substr(`email`, instr(`email`, '@'))", columns)).toBe(`substr("email", strpos("email", '@'))`);
    expect(toPostgres("legacy = true", columns)).toBe(`"legacy" = 1`);
    expect(toPostgres("false", new Set())).toBe("0");
  });

  it("refuses a function, an operator or a name it has no translation for", () => {
    expect(() => toPostgres("unixepoch()", new Set())).toThrow("no PostgreSQL translation for the SQLite function unixepoch()");
    expect(() => toPostgres("name GLOB 'a*'", columns)).toThrow("no PostgreSQL translation for GLOB");
    expect(() => toPostgres("name IS email", columns)).toThrow("SQLite's IS between values");
    expect(() => toPostgres("`other` = 1", columns)).toThrow("is not a column here");
  });
});
