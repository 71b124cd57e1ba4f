import { Database } from "bun:sqlite";
import { join } from "node:path";
import type { Config } from "../config/config.ts";
import { createSecretBox } from "../shared/crypto.ts";
import { missingKey, notThisDatabasesKey, opens, readSecretFile, SECRET_FILE, sealedSample } from "./instance-secret.ts";

/**
 * For `cairn backup`: the instance key to write beside the copy at `copy` (FILE.key), once it is
 * seen to open the copy's sealed values, so that no backup is published that its key cannot
 * restore. Null when nothing is to be written: the key is CAIRN_SECRET (it stays where the
 * operator keeps it), or the copy seals nothing and the instance has no key yet. Throws
 * InstanceSecretError when the data folder's key is missing, short or not this database's.
 */
export function backupKey(config: Pick<Config, "dataDir" | "secret">, copy: string): string | null {
  const sqlite = new Database(copy, { readonly: true });
  try {
    const found = sqliteInstanceKey(config, sqlite);
    return found?.file ? found.key : null;
  } finally {
    sqlite.close(false);
  }
}

/**
 * The instance key that opens the sealed values of the SQLite database `sqlite` (a copy, or the
 * instance's own file), tried on one of them: CAIRN_SECRET (`file` null), else the data folder's
 * secret.key (`file` its path). Null when nothing is sealed and there is no key yet. Throws
 * InstanceSecretError when the key is missing, short or not this database's.
 */
export function sqliteInstanceKey(config: Pick<Config, "dataDir" | "secret">, sqlite: Database): { key: string; file: string | null } | null {
  const sample = sealedSample(sqlite);
  const file = join(config.dataDir, SECRET_FILE);
  const key = config.secret ?? readSecretFile(file, { nothingSealed: sample === null });
  if (key === null) {
    if (sample) throw missingKey(file);
    return null;
  }
  if (sample && !opens(createSecretBox(key), sample)) throw notThisDatabasesKey(config, file);
  return { key, file: config.secret === null ? file : null };
}
