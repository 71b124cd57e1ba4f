import type { Db } from "../../db/client.ts";
import { withTx } from "../../db/tx.ts";

/**
 * withTx for a write to a team's workspace. Todos, assignees, comments and cached members move
 * their sets' rows (list versions and counts, kept by triggers), so two writes in one team
 * collide on them: on PostgreSQL, with instances side by side, they take turns instead of failing
 * to serialize (db/pg/transaction.ts). SQLite has one writer at a time anyway.
 */
export const withTeamTx = <T>(db: Db, teamId: string, fn: () => Promise<T>): Promise<T> => withTx(db, fn, { turn: `workspace-team:${teamId}` });
