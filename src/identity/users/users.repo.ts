import { and, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { prepared } from "../../db/prepared.ts";
import { type UserRow, users } from "./users.table.ts";

const activeUserQuery = (db: Db) => db.select().from(users).where(and(eq(users.id, sql.placeholder("id")), isNull(users.disabledAt))).prepare();

/** The user with this id unless disabled (a prepared statement: the token endpoint asks every time). */
export function findActiveUser(db: Db, id: string): UserRow | null {
  return prepared(db, activeUserQuery).get({ id }) ?? null;
}
