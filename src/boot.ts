import { resolveTxt } from "node:dns/promises";
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Config } from "./config/config.ts";
import type { AppContext } from "./context/context.ts";
import { closeDatabase, type Db, openDatabase } from "./db/client.ts";
import { applyMigrations } from "./db/migrate.ts";
import { configOwnerAccess } from "./identity/config-owner-access.ts";
import { systemClock } from "./shared/clock.ts";
import { dataDirError, ensureDataDir } from "./shared/data-dir.ts";
import { instanceSecret } from "./keys/instance-secret.ts";
import { createLogger, type Logger } from "./shared/log.ts";
import { openPostgresStore, type PostgresStore } from "./db/pg/open.ts";
import type { PgOptions } from "./db/pg/client.ts";
import { createBodyDeadline } from "./shared/body-deadline.ts";
import { createAccountEvents } from "./shared/account-events.ts";
import { bootAccess } from "./access/access.boot.ts";
import { createAccessKernel } from "./access/access.context.ts";
import { createPurges } from "./context/purges.ts";
import { createEventBus } from "./context/event-bus.ts";
import { singleProcess } from "./context/cluster.ts";
import { listenRelay } from "./context/pg-cluster.ts";
import { shareAcrossInstances } from "./context/across-instances.ts";
import { createKeyCache } from "./keys/keys.context.ts";
import { bootIdentity } from "./identity/identity.boot.ts";
import { bootOAuth } from "./oauth/oauth.boot.ts";
import { bootSettings } from "./settings/settings.boot.ts";
import { bootWorkspace } from "./workspace/workspace.boot.ts";
import { bootDocs } from "./docs/docs.boot.ts";
import { bootMail } from "./mail/mail.boot.ts";
import { bootForwardAuth } from "./forward-auth/forward-auth.boot.ts";
import { VERSION } from "./version.ts";
import { createMetrics } from "./metrics/metrics.ts";
import { workerIndex } from "./workers.ts";

export const databaseFile = (config: Pick<Config, "dataDir">) => join(config.dataDir, "cairn.db");

/** A command that works on an existing instance found none where CAIRN_DATA points. */
export class NoDatabaseError extends Error {
  constructor(readonly file: string) {
    super(`no database at ${file} (set CAIRN_DATA)`);
    this.name = "NoDatabaseError";
  }
}

/** The instance's database file, which must already exist: throws NoDatabaseError, creating nothing. */
export function existingDatabaseFile(config: Pick<Config, "dataDir">): string {
  const file = databaseFile(config);
  if (!existsSync(file)) throw new NoDatabaseError(file);
  return file;
}

export type BootOptions = {
  /**
   * Whether a missing data folder, database and secret.key are created (the default). Only serve and
   * migrate start an instance; another command run in the wrong folder must not make an empty one.
   */
  create?: boolean;
};

/** Opens the instance's database (not migrated); a file that is no database, or cannot be opened, throws DataDirError. */
export function openInstanceDatabase(config: Config, create: boolean): Db {
  const file = create ? databaseFile(config) : existingDatabaseFile(config);
  let db: Db;
  try {
    // One process serving: its group commits fsync off the event loop (a sibling process could read a row before that fsync).
    db = openDatabase(file, { syncOffLoop: config.workers === 1 });
  } catch (e) {
    throw dataDirError(config.dataDir, e) ?? e;
  }
  return db;
}

/**
 * The instance's database, migrated: PostgreSQL when CAIRN_DATABASE_URL names one (issue 46), else
 * the SQLite file in the data folder.
 */
export async function openStore(config: Config, create: boolean, log?: Logger, listening: PgOptions = {}): Promise<Db> {
  if (config.databaseUrl !== null)
    return openPostgresStore(config.databaseUrl, {
      ...listening,
      waiting: (e) => log?.warn("waiting for the database", { error: e.message }),
    });
  const db = openInstanceDatabase(config, create);
  try {
    applyMigrations(db.$client);
  } catch (e) {
    closeDatabase(db);
    throw e;
  }
  return db;
}

/**
 * Prepares the data folder, database (migrated) and instance key: everything createApp needs.
 * Throws DataDirError, NoDatabaseError or InstanceSecretError (keys/instance-secret.ts), whose
 * message is the one line to print.
 */
export async function bootContext(
  config: Config,
  overrides: Partial<Omit<AppContext, "config" | "db">> = {},
  { create = true }: BootOptions = {},
): Promise<AppContext> {
  if (create) ensureDataDir(config.dataDir);
  const relay = listenRelay();
  const db = await openStore(config, create, overrides.log, relay.events);
  let secrets: AppContext["secrets"];
  try {
    secrets = await instanceSecret(config, db, overrides.clock ?? systemClock);
  } catch (e) {
    closeDatabase(db);
    throw e;
  }
  const clock = overrides.clock ?? systemClock;
  const log = overrides.log ?? createLogger(config.logLevel);
  const purges = createPurges(db);
  // Several instances on PostgreSQL: what must be one across the instance's processes is one across all of them.
  const shared =
    db.$dialect === "postgres" ? await shareAcrossInstances(db as PostgresStore, overrides.cluster ?? singleProcess(), relay, { clock, log, purges }) : null;
  const cluster = shared?.cluster ?? overrides.cluster ?? singleProcess();
  const bus = createEventBus({ db, clock, cluster, announce: shared?.announce });
  shared?.cluster.onMissed(() => bus.missed());
  const kernel = {
    config,
    db,
    clock: systemClock,
    log,
    secrets,
    version: VERSION,
    outbound: { allowLoopback: false },
    bodyDeadline: createBodyDeadline(),
    accountEvents: createAccountEvents(),
    cluster,
    access: createAccessKernel(config, cluster, db),
    purges,
    bus,
    keys: createKeyCache(),
    dns: { resolveTxt },
    metrics: createMetrics(cluster, config.workers, workerIndex() ?? 0),
  };
  // The products fill in the members they own just below, from this context (a test's clock
  // included); nothing reads it before they have.
  const ctx = { ...kernel, ...overrides, cluster } as AppContext;
  ctx.configAccess = overrides.configAccess ?? configOwnerAccess(ctx);
  db.$group.observeCommits((seconds) => ctx.metrics.commit(seconds));
  // Every request whose writes the batch held is refused with a 503; the operator learns why here.
  db.$group.observeFailures((error, batch) => {
    if (batch === 0) ctx.log.error("after-commit work failed", { error: error.message });
    else if (db.$group.failure()) ctx.log.warn("batch refused: the database failed (see above)", { batch });
    else ctx.log.error("commit failed: the writes of this batch were rolled back and their requests refused", { batch, error: error.message });
  });
  db.$group.observeBreak((error, what) => ctx.log.error(`${what}: every request is refused until Cairn is restarted`, { error: error.message }));
  // Each product adds what it owns: credential kinds, policies, listeners of account events.
  // One after another, each awaited: a product's boot may read or write the database.
  bootAccess(ctx);
  bootMail(ctx);
  await bootIdentity(ctx);
  await bootOAuth(ctx);
  bootSettings(ctx);
  await bootWorkspace(ctx);
  await bootDocs(ctx);
  await bootForwardAuth(ctx);
  return ctx;
}
