#!/usr/bin/env bun
import { createApp, MAX_REQUEST_BYTES } from "./app.ts";
import { bootContext, databaseFile, existingDatabaseFile, NoDatabaseError } from "./boot.ts";
import { ConfigError, loadConfig } from "./config/config.ts";
import type { AppContext } from "./context/context.ts";
import { BackupError, backupDatabase } from "./db/backup.ts";
import { closeDatabase, openDatabase } from "./db/client.ts";
import { applyMigrations } from "./db/migrate.ts";
import { startJobs } from "./jobs/jobs.ts";
import { rotateIdTokenKeys } from "./keys/rotation.ts";
import { resetPasswordFromHost } from "./identity/admin/reset-password.ts";
import { isConfigured } from "./settings/init/init.service.ts";
import { ensureDataDir } from "./shared/data-dir.ts";
import { VERSION } from "./version.ts";
import { primaryCluster, singleProcess, workerCluster } from "./context/cluster.ts";
import { jwksBody } from "./keys/jwks.ts";
import { createLogger } from "./shared/log.ts";
import { startWorkers, workerIndex } from "./workers.ts";
import { probeHealth } from "./health/healthcheck.ts";

const USAGE = `Cairn ${VERSION}: single sign-on and a shared todo workspace in one binary.

Usage: cairn [command]

Commands:
  serve          start the server (the default)
  migrate        apply database migrations and exit
  backup FILE    write a consistent copy of the running database to FILE (never overwrites)
  keys rotate    new ID-token signing keys now (the old ones stay published for 14 days)
  admin reset-password USER
                 give USER (username or email) a new random password, remove their second
                 factors and end their sessions: recovery for someone locked out
  healthcheck    exit 0 if the server on PORT answers /healthz (for container health checks)

Options:
  --help, -h     show this help
  --version, -v  print the version

Configuration is read from the environment (CAIRN_DATA, PORT, CAIRN_ISSUER, ...): see the README.
Only serve and migrate create the data folder (default ./data); the other commands need its database.
`;

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

/** The context of a command that works on an existing instance: it never creates one. */
function existingContext(): AppContext {
  try {
    return bootContext(config(), {}, { create: false });
  } catch (e) {
    if (e instanceof NoDatabaseError) fail(e.message);
    throw e;
  }
}

/** Whether another program already holds `port` (a bind shared with SO_REUSEPORT would not say so). */
function portTaken(port: number): boolean {
  try {
    Bun.serve({ port, reusePort: false, fetch: () => new Response() }).stop(true);
    return false;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "EADDRINUSE") return true;
    throw e;
  }
}

/** What the process holds of its listening app: its server, and a way to stop it. */
type Listening = { server: { port?: number } | null; stop: (closeActiveConnections?: boolean) => Promise<unknown> };

/**
 * Several workers bind the port with SO_REUSEPORT and the kernel splits the connections between
 * them; alone, the port is bound exclusively. Either way a port some other program holds is an error.
 */
function listen(ctx: AppContext, shared: boolean): Listening {
  const inUse = (): never => {
    closeDatabase(ctx.db);
    fail(`PORT ${ctx.config.port} is already in use`);
  };
  if (shared && workerIndex() === null && ctx.config.port !== 0 && portTaken(ctx.config.port)) inUse();
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
function startMessage(ctx: AppContext): string {
  const { issuer } = ctx.config;
  return isConfigured(ctx) ? `Cairn is running at ${issuer}` : `Cairn is running. Finish setup in your browser: ${issuer}/setup`;
}

/** Stops on SIGTERM and SIGINT: no new connections, requests in flight finish, `before` runs, the database closes cleanly. */
function stopOnSignals(ctx: AppContext, app: ReturnType<typeof listen>, before: () => void | Promise<void>) {
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    ctx.log.info("shutting down", { signal });
    await before();
    await app.stop(false);
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
  const ctx = bootContext(cfg, shared ? { cluster, log: createLogger(cfg.logLevel, undefined, { worker: 0 }) } : {});
  const app = listen(ctx, shared);
  // The signing keys exist before any worker could race to make them.
  if (shared) await jwksBody(ctx);
  const workers = primary ? startWorkers(primary, cfg.workers, ctx.log) : null;
  const stopJobs = startJobs(ctx);
  // Before announcing the start: a stop sent as soon as it reads "listening" must be a clean one.
  stopOnSignals(ctx, app, async () => {
    stopJobs();
    await workers?.stop();
  });
  ctx.log.info("listening", { port: app.server?.port, issuer: ctx.config.issuer, data: ctx.config.dataDir, version: VERSION, workers: cfg.workers });
  process.stderr.write(`${startMessage(ctx)}\n`);
}

/** A worker the primary started: serves the same port and database; shared state goes through the primary. */
function serveWorker(index: number): void {
  const cfg = config();
  const cluster = workerCluster((message) => process.send?.(message));
  process.on("message", (message) => cluster.receive(message));
  const ctx = bootContext(cfg, { cluster, log: createLogger(cfg.logLevel, undefined, { worker: index }) });
  const app = listen(ctx, true);
  const shutdown = stopOnSignals(ctx, app, () => {});
  // The primary is gone (killed, say): a worker alone would serve without its jobs and its relay.
  process.on("disconnect", () => void shutdown("primary gone"));
  ctx.log.info("worker listening", { port: app.server?.port });
}

function migrate(): void {
  const cfg = config();
  ensureDataDir(cfg.dataDir);
  const db = openDatabase(databaseFile(cfg));
  const applied = applyMigrations(db.$client);
  closeDatabase(db);
  process.stdout.write(applied.length ? `applied ${applied.join(", ")}\n` : "database is up to date\n");
}

async function rotateKeysCommand(): Promise<void> {
  const ctx = existingContext();
  const kids = await rotateIdTokenKeys(ctx);
  closeDatabase(ctx.db);
  process.stdout.write(`new signing keys: ${kids.join(", ")}; the previous ones stay in the JWKS for 14 days\n`);
}

async function resetPassword(login: string | undefined): Promise<void> {
  if (!login) fail("usage: cairn admin reset-password USER", 2);
  // A booted context, so that the revocation reaches every listener (OAuth grants, workspace sessions).
  const ctx = existingContext();
  const result = await resetPasswordFromHost(ctx, login);
  closeDatabase(ctx.db);
  if (!result) fail(`no user with username or email "${login}"`);
  process.stdout.write(
    `New password for ${result.username}: ${result.password}\n` +
      "Their TOTP, backup codes and passkeys were removed and every session ended.\n" +
      "Sign in with it, then change the password and enrol second factors again.\n",
  );
}

function backup(target: string | undefined): void {
  if (!target) fail("backup needs a file name: cairn backup FILE", 2);
  try {
    const bytes = backupDatabase(existingDatabaseFile(config()), target);
    process.stdout.write(`backup written to ${target} (${bytes} bytes)\n`);
  } catch (e) {
    if (e instanceof BackupError || e instanceof NoDatabaseError) fail(e.message);
    fail(`backup failed: ${(e as Error).message}`);
  }
}

const [command = "serve", ...rest] = process.argv.slice(2);
switch (command) {
  case "serve": {
    const index = workerIndex();
    if (index === null) await serve();
    else serveWorker(index);
    break;
  }
  case "migrate":
    migrate();
    break;
  case "backup":
    backup(rest[0]);
    break;
  case "keys":
    if (rest[0] !== "rotate") fail(`unknown keys command "${rest[0] ?? ""}"\n\n${USAGE}`, 2);
    await rotateKeysCommand();
    break;
  case "admin":
    if (rest[0] !== "reset-password") fail(`unknown admin command "${rest[0] ?? ""}"\n\n${USAGE}`, 2);
    await resetPassword(rest[1]);
    break;
  case "healthcheck": {
    const problem = await probeHealth(config().port);
    if (problem) fail(problem);
    break;
  }
  case "--help":
  case "-h":
  case "help":
    process.stdout.write(USAGE);
    break;
  case "--version":
  case "-v":
    process.stdout.write(`${VERSION}\n`);
    break;
  default:
    fail(`unknown command "${command}"\n\n${USAGE}`, 2);
}
