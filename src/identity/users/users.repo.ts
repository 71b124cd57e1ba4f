import { and, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { type UserRow, users } from "./users.table.ts";
import { onFirstUse } from "../../shared/on-first-use.ts";

/** The users table's hot statement, prepared once per app: the token endpoint asks on every grant. */
export function createUsersRepo(db: Db) {
  const active = onFirstUse(() =>
    db
      .select()
      .from(users)
      .where(and(eq(users.id, sql.placeholder("id")), isNull(users.disabledAt)))
      .prepare(),
  );
  return {
    /** The user with this id unless disabled. */
    findActive: async (id: string): Promise<UserRow | null> => (await active().get({ id })) ?? null,
  };
}

export type UsersRepo = ReturnType<typeof createUsersRepo>;
