import type { Database } from "bun:sqlite";
import { existsSync, readFileSync } from "node:fs";
import { desc } from "drizzle-orm";
import { join } from "node:path";
import type { Config } from "../config/config.ts";
import type { Db } from "../db/client.ts";
import { insertSettingOnce, readSetting } from "../db/settings.repo.ts";
import type { Clock } from "../shared/clock.ts";
import { createSecretBox, randomToken, type SecretBox } from "../shared/crypto.ts";
import { writeNewFile } from "../shared/durable-file.ts";
import { signingKeyPurpose } from "./keystore.ts";
import { signingKeys } from "./keys.table.ts";

/** The instance key in the data folder when CAIRN_SECRET is unset (ARCHITECTURE section 1). */
export const SECRET_FILE = "secret.key";

/** As CAIRN_SECRET must be (config.ts); a key Cairn makes has 43 (32 random bytes, base64url). */
const MIN_KEY_LENGTH = 32;

/** The settings row holding a value sealed at first start: the key that opens it is this database's. */
const CHECK_KEY = "instance_secret_check";
const CHECK_PURPOSE = "instance secret check";

/** The instance key is missing, short or not this database's; the message is the one line printed before the process stops. */
export class InstanceSecretError extends Error {
  override name = "InstanceSecretError";
}

const RESTORE =
  "put back the secret.key saved with this database (cairn backup writes it beside the copy as FILE.key), or set CAIRN_SECRET to the secret it ran with";

/** A value sealed with the instance key, and what it was sealed for. */
export type SealedSample = { sealed: string; purpose: string };

const hasTable = (sqlite: Database, name: string) => sqlite.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== null;

/**
 * One value of the database sealed with its instance key, to try a key on: the check sealed at
 * first start, else (a database from before the check) the newest signing key; null when nothing
 * is sealed. Plain SQL on a SQLite file, as a backup copy is (keys/backup-key.ts), of any schema version.
 */
export function sealedSample(sqlite: Database): SealedSample | null {
  if (hasTable(sqlite, "settings")) {
    const row = sqlite.query("SELECT value FROM settings WHERE key = ?").get(CHECK_KEY) as { value: string } | null;
    if (row) return { sealed: JSON.parse(row.value) as string, purpose: CHECK_PURPOSE };
  }
  if (hasTable(sqlite, "signing_keys")) {
    const row = sqlite.query("SELECT kid, private_jwk_sealed AS sealed FROM signing_keys ORDER BY created_at DESC LIMIT 1").get() as {
      kid: string;
      sealed: string;
    } | null;
    if (row) return { sealed: row.sealed, purpose: signingKeyPurpose(row.kid) };
  }
  return null;
}

/** sealedSample of the instance's own database, migrated: read through drizzle, as on any store. */
async function liveSample(db: Db): Promise<SealedSample | null> {
  const check = await readSetting<string>(db, CHECK_KEY);
  if (check !== undefined) return { sealed: check, purpose: CHECK_PURPOSE };
  const key = await db
    .select({ kid: signingKeys.kid, sealed: signingKeys.privateJwkSealed })
    .from(signingKeys)
    .orderBy(desc(signingKeys.createdAt))
    .limit(1)
    .get();
  return key ? { sealed: key.sealed, purpose: signingKeyPurpose(key.kid) } : null;
}

/** Whether `box` opens `sample` (AES-GCM: a wrong key fails its tag, it never yields garbage). */
export function opens(box: SecretBox, sample: SealedSample): boolean {
  try {
    box.open(sample.sealed, sample.purpose);
    return true;
  } catch {
    return false;
  }
}

/**
 * The key in `file`, or null when there is no file. A file shorter than a key (emptied by a power
 * cut before it reached the disk, or cut short by hand) is refused: sealing with what is left
 * would use a key anyone can guess.
 */
export function readSecretFile(file: string, { nothingSealed }: { nothingSealed: boolean }): string | null {
  if (!existsSync(file)) return null;
  const key = readFileSync(file, "utf8").trim();
  if (key.length >= MIN_KEY_LENGTH) return key;
  const fix = nothingSealed ? "this database holds nothing sealed with it yet: delete the file and start again, and Cairn makes a new one" : RESTORE;
  throw new InstanceSecretError(`${file} is empty or cut short (${key.length} characters; a key has at least ${MIN_KEY_LENGTH}): ${fix}`);
}

/** Writes a new key to `file` (temporary file, fsync, link into place, fsync of the folder) and answers the key the file holds. */
export function createSecretFile(file: string): string {
  // Never over a key another process made a moment ago: then that one is the key.
  writeNewFile(file, `${randomToken(32)}\n`, { mode: 0o600 });
  return readSecretFile(file, { nothingSealed: true }) as string;
}

/** The line for a key file that is not there although the database holds values sealed with it. */
export const missingKey = (file: string) => new InstanceSecretError(`${file} is missing, but this database holds values sealed with it: ${RESTORE}`);

/** The line for a key that does not open the database's sealed values. */
export function notThisDatabasesKey(config: Pick<Config, "secret">, file: string): InstanceSecretError {
  if (config.secret === null) return new InstanceSecretError(`${file} does not open this database's sealed values (it is another instance's key): ${RESTORE}`);
  const orFile = existsSync(file) ? `, or unset it to use ${file}` : "";
  return new InstanceSecretError(`CAIRN_SECRET does not open this database's sealed values: set it to the secret this database was sealed with${orFile}`);
}

/**
 * The instance key for `config` and the database `db`: CAIRN_SECRET, else `<data>/secret.key`,
 * made on first start. It is tried on a sealed value of the database before anything is served,
 * so a key that is not this database's (a restore without its secret.key, another instance's key)
 * stops the start with the line that names the fix, instead of a server that reports ready and
 * then fails every sign-in. Authelia checks its storage encryption key against the database at
 * start the same way. Throws InstanceSecretError.
 */
export async function instanceSecret(config: Pick<Config, "dataDir" | "secret">, db: Db, clock: Clock): Promise<SecretBox> {
  const file = join(config.dataDir, SECRET_FILE);
  const sample = await liveSample(db);
  let secret = config.secret ?? readSecretFile(file, { nothingSealed: sample === null });
  if (secret === null) {
    // No key, and values sealed with one: a new key would open none of them.
    if (sample) throw missingKey(file);
    secret = createSecretFile(file);
  }
  const box = createSecretBox(secret);
  if (sample && !opens(box, sample)) throw notThisDatabasesKey(config, file);
  if (sample?.purpose !== CHECK_PURPOSE && !(await insertSettingOnce(db, clock, CHECK_KEY, box.seal(CHECK_KEY, CHECK_PURPOSE)))) {
    // Another process sealed the check a moment ago: it must be with this same key.
    const check = await liveSample(db);
    if (check && !opens(box, check)) throw notThisDatabasesKey(config, file);
  }
  return box;
}
