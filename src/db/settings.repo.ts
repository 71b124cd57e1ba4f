import { eq, sql } from "drizzle-orm";
import { changedRows } from "./changes.ts";
import type { Db } from "./client.ts";
import { prepared } from "./prepared.ts";
import type { Clock } from "../shared/clock.ts";
import { settings } from "./settings.table.ts";

const settingQuery = (db: Db) =>
  db
    .select({ value: settings.value })
    .from(settings)
    .where(eq(settings.key, sql.placeholder("key")))
    .prepare();

/** Reads one instance setting, or undefined when it was never saved. */
export async function readSetting<T>(db: Db, key: string): Promise<T | undefined> {
  const row = await prepared(db, settingQuery).get({ key });
  return row === undefined ? undefined : (row.value as T);
}

export async function writeSetting(db: Db, clock: Clock, key: string, value: unknown): Promise<void> {
  const updatedAt = clock.now();
  await db.insert(settings).values({ key, value, updatedAt }).onConflictDoUpdate({ target: settings.key, set: { value, updatedAt } }).run();
}

/** Inserts only when the key is absent; true when this call created it (a one-use marker). */
export async function insertSettingOnce(db: Db, clock: Clock, key: string, value: unknown): Promise<boolean> {
  return changedRows(await db.insert(settings).values({ key, value, updatedAt: clock.now() }).onConflictDoNothing().run()) === 1;
}
