import { asc, count, eq, inArray } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { changedRows } from "../../db/changes.ts";
import { teamGroups, teams } from "../../identity/teams/teams.table.ts";
import { forwardAuthRules, type RuleRow } from "./rules.table.ts";

const ORDER = [asc(forwardAuthRules.position), asc(forwardAuthRules.createdAt), asc(forwardAuthRules.id)];

/** Every rule in the order they are tried. */
export const selectRules = (db: Db): RuleRow[] =>
  db
    .select()
    .from(forwardAuthRules)
    .orderBy(...ORDER)
    .all();

export const findRule = (db: Db, id: string): RuleRow | null => db.select().from(forwardAuthRules).where(eq(forwardAuthRules.id, id)).get() ?? null;

export const countRules = (db: Db): number => db.select({ n: count() }).from(forwardAuthRules).get()?.n ?? 0;

export const insertRule = (db: Db, row: RuleRow): void => void db.insert(forwardAuthRules).values(row).run();

export const updateRule = (db: Db, id: string, values: Partial<RuleRow>): void =>
  void db.update(forwardAuthRules).set(values).where(eq(forwardAuthRules.id, id)).run();

/** Whether a row was there to delete. */
export const deleteRule = (db: Db, id: string): boolean => changedRows(db.delete(forwardAuthRules).where(eq(forwardAuthRules.id, id)).run()) === 1;

/**
 * Numbers the rules 0, 1, 2... in their order, with `moved` put at its place first (clamped to the
 * list); only rows whose number changes are written. Run inside the write's transaction.
 */
export function renumberRules(db: Db, moved?: { id: string; at: number }): void {
  const rows = db
    .select({ id: forwardAuthRules.id, position: forwardAuthRules.position })
    .from(forwardAuthRules)
    .orderBy(...ORDER)
    .all();
  if (moved) {
    const from = rows.findIndex((r) => r.id === moved.id);
    const [row] = rows.splice(from, 1);
    if (row) rows.splice(Math.min(moved.at, rows.length), 0, row);
  }
  rows.forEach((row, i) => {
    if (row.position !== i) db.update(forwardAuthRules).set({ position: i }).where(eq(forwardAuthRules.id, row.id)).run();
  });
}

/** Of these team ids, those no team has. */
export function unknownTeams(db: Db, ids: string[]): string[] {
  if (ids.length === 0) return [];
  const known = new Set(
    db
      .select({ id: teams.id })
      .from(teams)
      .where(inArray(teams.id, ids))
      .all()
      .map((t) => t.id),
  );
  return ids.filter((id) => !known.has(id));
}

/** Of these `<teamId>/<slug>` names, those no group has. */
export function unknownGroups(db: Db, names: string[]): string[] {
  if (names.length === 0) return [];
  const teamIds = [...new Set(names.map((n) => n.slice(0, n.indexOf("/"))))];
  const known = new Set(
    db
      .select({ teamId: teamGroups.teamId, slug: teamGroups.slug })
      .from(teamGroups)
      .where(inArray(teamGroups.teamId, teamIds))
      .all()
      .map((g) => `${g.teamId}/${g.slug}`),
  );
  return names.filter((n) => !known.has(n));
}
