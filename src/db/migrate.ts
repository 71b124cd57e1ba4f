import type { Database } from "bun:sqlite";
import { bundledMigrations, type Migration } from "./migrations.ts";

/**
 * Applies the migrations not yet applied, in one IMMEDIATE transaction so two processes starting
 * together cannot both apply one. Bookkeeping is drizzle's own `__drizzle_migrations` table, so
 * drizzle-kit sees the same state. Returns the tags applied now (none on a second run).
 */
export function applyMigrations(sqlite: Database, migrations: Migration[] = bundledMigrations()): string[] {
  sqlite.run(`CREATE TABLE IF NOT EXISTS "__drizzle_migrations" (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at numeric)`);
  const applied: string[] = [];
  sqlite
    .transaction(() => {
      const last = sqlite.query<{ created_at: number }, []>(`SELECT created_at FROM "__drizzle_migrations" ORDER BY created_at DESC LIMIT 1`).get();
      for (const m of migrations) {
        if (last && Number(last.created_at) >= m.when) continue;
        for (const statement of m.statements) sqlite.run(statement);
        sqlite.run(`INSERT INTO "__drizzle_migrations" (hash, created_at) VALUES (?, ?)`, [m.hash, m.when]);
        applied.push(m.tag);
      }
    })
    .immediate();
  return applied;
}
