#!/usr/bin/env bun
import { createApp, MAX_REQUEST_BYTES } from "./app.ts";
import { bootContext, type BootOptions, existingDatabaseFile, NoDatabaseError, openInstanceDatabase } from "./boot.ts";
import { ConfigError, loadConfig } from "./config/config.ts";
import type { AppContext } from "./context/context.ts";
import { BackupError, backupDatabase } from "./db/backup.ts";
import { closeDatabase } from "./db/client.ts";
import { applyMigrations } from "./db/migrate.ts";
import { migrateDatabase } from "./db/pg/open.ts";
import { CONVERT_AT_START_MAX_BYTES, conversionNote, convertToIncremental } from "./db/vacuum.ts";
import { startJobs } from "./jobs/jobs.ts";
import { startMailSender } from "./mail/sender.ts";
import { rotateIdTokenKeys } from "./keys/rotation.ts";
import { resetPasswordFromHost } from "./identity/admin/reset-password.ts";
import { isConfigured } from "./settings/init/init.service.ts";
import { DataDirError, ensureDataDir } from "./shared/data-dir.ts";
import { InstanceSecretError } from "./keys/instance-secret.ts";
import { backupKey } from "./keys/backup-key.ts";
import { VERSION } from "./version.ts";
import { parseCommandLine } from "./command-line.ts";
import { primaryCluster, singleProcess, workerCluster } from "./context/cluster.ts";
import { jwksBody } from "./keys/jwks.ts";
import { createLogger } from "./shared/log.ts";
import { startWorkers, workerIndex } from "./workers.ts";
import { probeHealth } from "./health/healthcheck.ts";

function fail(message: string, code = 1): never {
  process.stderr.write(`cairn: ${message}\n`);
  process.exit(code);
}

function config() {
  try {
    return loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) fail(e.message);
    throw e;
  }
}

/** Errors whose message is the one line an operator needs (what is wrong, and the fix). */
const isOneLiner = (e: unknown): e is Error =>
  e instanceof ConfigError || e instanceof DataDirError || e instanceof NoDatabaseError || e instanceof InstanceSecretError;

/** bootContext, stopping with one line when the data folder, database or instance key is not usable. */
async function boot(cfg: ReturnType<typeof config>, overrides: Parameters<typeof bootContext>[1] = {}, options: BootOptions = {}): Promise<AppContext> {
  try {
    return await bootContext(cfg, overrides, options);
  } catch (e) {
    if (isOneLiner(e)) fail(e.message);
    throw e;
  }
}

/** The context of a command that works on an existing instance: it never creates one. */
const existingContext = (): Promise<AppContext> => boot(config(), {}, { create: false });

const portInUse = (port: number): never => fail(`PORT ${port} is already in use: stop the program that holds it, or set PORT to a free port`);

/**
 * Stops the start when another program holds `port`, before the data folder, database and key are
 * made: a start refused for a taken port creates nothing. Bound exclusively (a bind shared with
 * SO_REUSEPORT would not see another program's) and let go at once. Port 0 is always free.
 */
function assertPortFree(port: number): void {
  if (port === 0) return;
  try {
    Bun.serve({ port, reusePort: false, fetch: () => new Response() }).stop(true);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "EADDRINUSE") portInUse(port);
    throw e;
  }
}

/** What the process holds of its listening app: its server, and a way to stop it. */
type Listening = { server: { port?: number } | null; stop: (closeActiveConnections?: boolean) => Promise<unknown> };

/**
 * Several workers bind the port with SO_REUSEPORT and the kernel splits the connections between
 * them; alone, the port is bound exclusively. Either way a port some other program holds is an
 * error (checked before anything was made: see assertPortFree).
 */
function listen(ctx: AppContext, shared: boolean): Listening {
  const inUse = (): never => {
    closeDatabase(ctx.db);
    return portInUse(ctx.config.port);
  };
  try {
    const app: Listening = createApp(ctx).listen({ port: ctx.config.port, maxRequestBodySize: MAX_REQUEST_BYTES, reusePort: shared });
    collectStartGarbage(ctx);
    return app;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EADDRINUSE") throw e;
    return inUse();
  }
}

/** Long enough after listening that the first answers do not wait on it. */
const START_GARBAGE_DELAY_MS = 250;

/**
 * Start-up (migrations, compiling the routes, the first statements) leaves garbage that an idle
 * server would hold until it next allocates enough to collect: one full collection shortly after
 * listening returns it (1.5 MB of the idle RSS, issue 12), once, off the path to the first answer.
 */
function collectStartGarbage(ctx: AppContext): void {
  setTimeout(() => {
    const started = performance.now();
    Bun.gc(true);
    ctx.log.debug("start-up garbage collected", { ms: Math.round((performance.now() - started) * 10) / 10 });
  }, START_GARBAGE_DELAY_MS).unref();
}

/** One line for the person who just started it: where to go next. */
async function startMessage(ctx: AppContext): Promise<string> {
  const { issuer } = ctx.config;
  return (await isConfigured(ctx)) ? `Cairn is running at ${issuer}` : `Cairn is running. Finish setup in your browser: ${issuer}/setup`;
}

/** How long a stop waits for realtime events still being sent. */
const SETTLE_GRACE_MS = 2_000;

/** Stops on SIGTERM and SIGINT: no new connections, requests in flight finish, `before` runs, the database closes cleanly. */
function stopOnSignals(ctx: AppContext, app: ReturnType<typeof listen>, before: () => void | Promise<void>) {
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    ctx.log.info("shutting down", { signal });
    await before();
    await app.stop(false);
    // PostgreSQL: the realtime events of the last writes are numbered and sent before the pool closes.
    await Promise.race([ctx.bus.settled(), Bun.sleep(SETTLE_GRACE_MS)]);
    closeDatabase(ctx.db);
    ctx.log.info("stopped");
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
  return shutdown;
}

/**
 * The primary (or only) process: migrates, serves, runs the jobs (here alone, so each runs once)
 * and starts the other CAIRN_WORKERS - 1 workers.
 */
async function serve(): Promise<void> {
  const cfg = config();
  const shared = cfg.workers > 1;
  const primary = shared ? primaryCluster() : null;
  const cluster = primary ?? singleProcess();
  assertPortFree(cfg.port);
  const ctx = await boot(cfg, shared ? { cluster, log: createLogger(cfg.logLevel, undefined, { worker: 0 }) } : {});
  // Before the workers open the file: an older database is converted once, while small (db/vacuum.ts).
  const converted = ctx.db.$dialect === "sqlite" ? conversionNote(convertToIncremental(ctx.db.$client, CONVERT_AT_START_MAX_BYTES)) : null;
  if (converted) ctx.log[converted.level](converted.text);
  const app = listen(ctx, shared);
  // The signing keys exist before any worker could race to make them.
  if (shared) await jwksBody(ctx);
  const workers = primary ? startWorkers(primary, cfg.workers, ctx.log) : null;
  const stopJobs = startJobs(ctx);
  // Here alone, as the jobs: one sender per instance, so no message goes out twice.
  const stopMail = await startMailSender(ctx);
  // Before announcing the start: a stop sent as soon as it reads "listening" must be a clean one.
  stopOnSignals(ctx, app, async () => {
    stopJobs();
    await Promise.all([workers?.stop(), stopMail()]);
  });
  ctx.log.info("listening", { port: app.server?.port, issuer: ctx.config.issuer, data: ctx.config.dataDir, version: VERSION, workers: cfg.workers });
  process.stderr.write(`${await startMessage(ctx)}\n`);
}

/** A worker the primary started: serves the same port and database; shared state goes through the primary. */
async function serveWorker(index: number): Promise<void> {
  const cfg = config();
  const cluster = workerCluster((message) => process.send?.(message));
  process.on("message", (message) => cluster.receive(message));
  const ctx = await boot(cfg, { cluster, log: createLogger(cfg.logLevel, undefined, { worker: index }) });
  const app = listen(ctx, true);
  const shutdown = stopOnSignals(ctx, app, () => {});
  // The primary is gone (killed, say): a worker alone would serve without its jobs and its relay.
  process.on("disconnect", () => void shutdown("primary gone"));
  ctx.log.info("worker listening", { port: app.server?.port });
}

async function migrate(): Promise<void> {
  const cfg = config();
  if (cfg.databaseUrl !== null) return migratePostgresCommand(cfg.databaseUrl);
  let applied: string[];
  let converted: ReturnType<typeof conversionNote>;
  try {
    ensureDataDir(cfg.dataDir);
    const db = openInstanceDatabase(cfg, true);
    applied = applyMigrations(db.$client);
    // Whatever its size: the operator chose the time (README, Upgrade).
    converted = conversionNote(convertToIncremental(db.$client));
    closeDatabase(db);
  } catch (e) {
    if (isOneLiner(e)) fail(e.message);
    throw e;
  }
  process.stdout.write(applied.length ? `applied ${applied.join(", ")}\n` : "database is up to date\n");
  if (converted) process.stdout.write(`${converted.text}\n`);
}

async function rotateKeysCommand(): Promise<void> {
  const ctx = await existingContext();
  const kids = await rotateIdTokenKeys(ctx);
  closeDatabase(ctx.db);
  process.stdout.write(`new signing keys: ${kids.join(", ")}; the previous ones stay in the JWKS for 14 days\n`);
}

async function resetPassword(login: string): Promise<void> {
  // A booted context, so that the revocation reaches every listener (OAuth grants, workspace sessions).
  const ctx = await existingContext();
  const result = await resetPasswordFromHost(ctx, login);
  closeDatabase(ctx.db);
  if (!result) fail(`no user with username or email "${login}"`);
  process.stdout.write(
    `New password for ${result.username}: ${result.password}\n` +
      "Their TOTP, backup codes and passkeys were removed and every session ended.\n" +
      "Sign in with it, then change the password and enrol second factors again.\n",
  );
}

/** PostgreSQL (issue 46): one instance migrates under a lock, the others wait for it (db/pg/migrate.ts). */
async function migratePostgresCommand(url: string): Promise<void> {
  let applied: string[];
  try {
    applied = await migrateDatabase(url);
  } catch (e) {
    fail(`migration failed: ${(e as Error).message}`);
  }
  process.stdout.write(applied.length ? `applied ${applied.join(", ")}\n` : "database is up to date\n");
}

function backup(target: string): void {
  const cfg = config();
  // The SQLite file is the instance; a PostgreSQL database is the platform's to back up, with its own tools.
  if (cfg.databaseUrl !== null)
    fail(
      'cairn backup copies the SQLite file; this instance runs on PostgreSQL (CAIRN_DATABASE_URL): back it up with pg_dump, e.g. pg_dump --format=custom --file=cairn.dump "$CAIRN_DATABASE_URL", and keep CAIRN_SECRET with it (README, PostgreSQL)',
    );
  try {
    const { bytes, keyFile } = backupDatabase(existingDatabaseFile(cfg), target, { keyFor: (copy) => backupKey(cfg, copy) });
    const key = keyFile
      ? `, its key to ${keyFile}: keep both, a restore needs both`
      : cfg.secret
        ? "; its key is your CAIRN_SECRET: a restore needs it too"
        : "; nothing in it is sealed yet, so it needs no key";
    process.stdout.write(`backup written to ${target} (${bytes} bytes)${key}\n`);
  } catch (e) {
    if (e instanceof BackupError || isOneLiner(e)) fail(e.message);
    fail(`backup failed: ${(e as Error).message}`);
  }
}

/** Loaded with its command only: a serving process never needs it. */
async function migrateToPostgresCommand(url: string): Promise<void> {
  const cfg = config();
  const { migrateToPostgres, MoveError, summary, tableLine } = await import("./migrate-to-postgres.ts");
  try {
    const report = await migrateToPostgres(cfg, url, (count) => process.stdout.write(`${tableLine(count)}\n`));
    process.stdout.write(summary(report, url));
  } catch (e) {
    if (e instanceof MoveError || isOneLiner(e)) fail(e.message);
    throw e;
  }
}

const line = parseCommandLine(process.argv.slice(2));
if ("mistake" in line) fail(`${line.mistake}\n\n${line.usage}`, 2);
if ("print" in line) process.stdout.write(line.print);
else await run(line);

async function run(command: Extract<typeof line, { run: string }>): Promise<void> {
  switch (command.run) {
    case "serve": {
      const index = workerIndex();
      if (index === null) await serve();
      else await serveWorker(index);
      break;
    }
    case "migrate":
      await migrate();
      break;
    case "backup":
      backup(command.file);
      break;
    case "migrate-to-postgres":
      await migrateToPostgresCommand(command.url);
      break;
    case "keys rotate":
      await rotateKeysCommand();
      break;
    case "admin reset-password":
      await resetPassword(command.login);
      break;
    case "healthcheck": {
      const problem = await probeHealth(config().port);
      if (problem) fail(problem);
      break;
    }
  }
}
