import { sql } from "drizzle-orm";
import type { Db } from "./client.ts";

/**
 * Inside withTx: waits until no other transaction holds the lock `name`, and holds it until this
 * one ends. On PostgreSQL a transaction-scoped advisory lock, keyed from the name as
 * db/pg/migrate.ts keys its own, which every instance on the database shares; on SQLite nothing,
 * as withTx's IMMEDIATE transaction already keeps every other writer out.
 */
export async function lockForTransaction(db: Db, name: string): Promise<void> {
  if (db.$dialect === "postgres") await db.run(sql`select pg_advisory_xact_lock(hashtextextended(${name}, 0))`);
}
