import { asc, count, eq, inArray } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { changedRows } from "../../db/changes.ts";
import { teamGroups, teams } from "../../identity/teams/teams.table.ts";
import { forwardAuthRules, type RuleRow } from "./rules.table.ts";

const ORDER = [asc(forwardAuthRules.position), asc(forwardAuthRules.createdAt), asc(forwardAuthRules.id)];

/** Every rule in the order they are tried. */
export const selectRules = (db: Db): Promise<RuleRow[]> =>
  db
    .select()
    .from(forwardAuthRules)
    .orderBy(...ORDER)
    .all();

export const findRule = async (db: Db, id: string): Promise<RuleRow | null> =>
  (await db.select().from(forwardAuthRules).where(eq(forwardAuthRules.id, id)).get()) ?? null;

export const countRules = async (db: Db): Promise<number> => (await db.select({ n: count() }).from(forwardAuthRules).get())?.n ?? 0;

export const insertRule = async (db: Db, row: RuleRow): Promise<void> => void (await db.insert(forwardAuthRules).values(row).run());

export const updateRule = async (db: Db, id: string, values: Partial<RuleRow>): Promise<void> =>
  void (await db.update(forwardAuthRules).set(values).where(eq(forwardAuthRules.id, id)).run());

/** Whether a row was there to delete. */
export const deleteRule = async (db: Db, id: string): Promise<boolean> =>
  changedRows(await db.delete(forwardAuthRules).where(eq(forwardAuthRules.id, id)).run()) === 1;

/**
 * Numbers the rules 0, 1, 2... in their order, with `moved` put at its place first (clamped to the
 * list); only rows whose number changes are written. Run inside the write's transaction.
 */
export async function renumberRules(db: Db, moved?: { id: string; at: number }): Promise<void> {
  const rows = await db
    .select({ id: forwardAuthRules.id, position: forwardAuthRules.position })
    .from(forwardAuthRules)
    .orderBy(...ORDER)
    .all();
  if (moved) {
    const from = rows.findIndex((r) => r.id === moved.id);
    const [row] = rows.splice(from, 1);
    if (row) rows.splice(Math.min(moved.at, rows.length), 0, row);
  }
  for (const [i, row] of rows.entries())
    if (row.position !== i) await db.update(forwardAuthRules).set({ position: i }).where(eq(forwardAuthRules.id, row.id)).run();
}

/** Of these team ids, those no team has. */
export async function unknownTeams(db: Db, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db.select({ id: teams.id }).from(teams).where(inArray(teams.id, ids)).all();
  const known = new Set(rows.map((t) => t.id));
  return ids.filter((id) => !known.has(id));
}

/** Of these `<teamId>/<slug>` names, those no group has. */
export async function unknownGroups(db: Db, names: string[]): Promise<string[]> {
  if (names.length === 0) return [];
  const teamIds = [...new Set(names.map((n) => n.slice(0, n.indexOf("/"))))];
  const rows = await db.select({ teamId: teamGroups.teamId, slug: teamGroups.slug }).from(teamGroups).where(inArray(teamGroups.teamId, teamIds)).all();
  const known = new Set(rows.map((g) => `${g.teamId}/${g.slug}`));
  return names.filter((n) => !known.has(n));
}
