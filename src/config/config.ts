import { isIP } from "node:net";
import { availableParallelism } from "node:os";
import { resolve } from "node:path";
import { boolean, ConfigError, type Env, integer, value } from "./env.ts";
import { loadSmtpConfig, type SmtpConfig } from "./smtp.ts";

const LOG_LEVELS = ["debug", "info", "warn", "error", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Everything the process reads from its environment, validated once at start (ARCHITECTURE section 8). */
export type Config = {
  /** Absolute path of the data folder. */
  dataDir: string;
  port: number;
  /** Issuer URL without a trailing slash. */
  issuer: string;
  secret: string | null;
  /** CAIRN_DATABASE_URL: PostgreSQL for several instances (issue 46); null for the embedded SQLite file. */
  databaseUrl: string | null;
  allowedTeamId: string | null;
  setupToken: string | null;
  docsWebhookSecret: string;
  docsHtmlTtlSeconds: number;
  logLevel: LogLevel;
  /** Request lines a second for answers that are neither refusals nor slow (CAIRN_LOG_REQUESTS_PER_SECOND); 0: every one. */
  logRequestsPerSecond: number;
  trustProxy: boolean;
  /** RFC 9449 section 8: DPoP proofs must carry a nonce this server handed out. */
  dpopNonce: boolean;
  /** RFC 9126 section 5: every client must push its authorization requests. */
  requirePar: boolean;
  /** Processes serving the port (CAIRN_WORKERS): one per core but one unless told. */
  workers: number;
  /** Bearer token that opens /metrics from anywhere; null: loopback only (CAIRN_METRICS_TOKEN). */
  metricsToken: string | null;
  /** The mail server (CAIRN_SMTP_*, config/smtp.ts); null: Cairn sends no mail. */
  smtp: SmtpConfig | null;
  /** The parent domain forward auth's cookie is scoped to, lower-case without a leading dot (CAIRN_COOKIE_DOMAIN); null: Cairn's host only. */
  cookieDomain: string | null;
};

export { ConfigError };
export type { SmtpConfig };

const TEAM_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const MIN_SECRET_LENGTH = 32;
/** More processes than this only add memory and write contention on one SQLite file. */
const MAX_WORKERS = 16;

/**
 * One worker per core but one: the cores also run the TLS proxy, SQLite's fsyncs and whatever
 * else the box hosts. Measured on 2 cores (issue 12), a second worker made every token path
 * slower, the load taking the other core; so a 2-core machine runs one process.
 */
export const defaultWorkers = () => Math.max(1, Math.min(availableParallelism() - 1, MAX_WORKERS));

function issuerUrl(env: Env, port: number): string {
  const raw = value(env, "CAIRN_ISSUER") ?? `http://localhost:${port}`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError("CAIRN_ISSUER", `must be an absolute URL, got "${raw}"`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new ConfigError("CAIRN_ISSUER", "must use https (or http for a local test instance)");
  if (url.username || url.password) throw new ConfigError("CAIRN_ISSUER", "must not contain credentials");
  // RFC 8414 section 2: the issuer has no query or fragment.
  if (url.search || url.hash || raw.includes("#") || raw.includes("?")) throw new ConfigError("CAIRN_ISSUER", "must not contain a query or fragment");
  return url.href.replace(/\/+$/, "");
}

const LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * CAIRN_COOKIE_DOMAIN: a domain the issuer's host lies in (or is), so the browser accepts a cookie
 * Cairn sets for it; not an address and not a single label (a browser refuses both as a Domain).
 */
function cookieDomain(env: Env, issuer: string): string | null {
  const raw = value(env, "CAIRN_COOKIE_DOMAIN");
  if (raw === undefined) return null;
  const domain = raw.toLowerCase().replace(/^\./, "");
  const labels = domain.split(".");
  if (domain.length > 253 || !labels.every((l) => LABEL.test(l)))
    throw new ConfigError("CAIRN_COOKIE_DOMAIN", `must be a domain name such as .home.example, got "${raw}"`);
  if (isIP(domain) !== 0 || labels.every((l) => /^\d+$/.test(l)))
    throw new ConfigError("CAIRN_COOKIE_DOMAIN", `must be a domain name, not an address, got "${raw}"`);
  if (labels.length < 2) throw new ConfigError("CAIRN_COOKIE_DOMAIN", `must have at least two labels (a browser refuses a cookie for "${domain}" alone)`);
  const host = new URL(issuer).hostname;
  if (host !== domain && !host.endsWith(`.${domain}`))
    throw new ConfigError("CAIRN_COOKIE_DOMAIN", `must be the issuer's host ${host} or a parent domain of it (CAIRN_ISSUER), got "${raw}"`);
  return domain;
}

/**
 * CAIRN_DATABASE_URL (postgres://user:password@host:5432/db), or null. Instances that share a
 * database share no data folder, so the key that seals secrets must be given to each: CAIRN_SECRET.
 */
function postgresUrl(env: Env, secret: string | null): string | null {
  const raw = value(env, "CAIRN_DATABASE_URL");
  if (raw === undefined) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError("CAIRN_DATABASE_URL", "must be a URL such as postgres://cairn:PASSWORD@db.example:5432/cairn");
  }
  if (url.protocol !== "postgres:" && url.protocol !== "postgresql:")
    throw new ConfigError("CAIRN_DATABASE_URL", `must be a postgres:// URL (the embedded SQLite file needs none), got ${url.protocol}//`);
  if (secret === null)
    throw new ConfigError(
      "CAIRN_DATABASE_URL",
      "needs CAIRN_SECRET too: every instance on the database must seal with the same secret (use: openssl rand -base64 32)",
    );
  return raw;
}

/** Reads and validates the environment; throws ConfigError naming the first bad variable. */
export function loadConfig(env: Env = process.env, cwd = process.cwd()): Config {
  const port = integer(env, "PORT", 3000, 0, 65535);
  const secret = value(env, "CAIRN_SECRET") ?? null;
  if (secret !== null && secret.length < MIN_SECRET_LENGTH)
    throw new ConfigError("CAIRN_SECRET", `must be at least ${MIN_SECRET_LENGTH} characters (use: openssl rand -base64 32)`);
  const databaseUrl = postgresUrl(env, secret);
  const allowedTeamId = value(env, "CAIRN_ALLOWED_TEAM_ID") ?? null;
  if (allowedTeamId !== null && !TEAM_ID.test(allowedTeamId))
    throw new ConfigError("CAIRN_ALLOWED_TEAM_ID", "must be a single team id (letters, digits, '.', '_', ':' or '-')");
  const metricsToken = value(env, "CAIRN_METRICS_TOKEN") ?? null;
  if (metricsToken !== null && (metricsToken.length < MIN_SECRET_LENGTH || /\s/.test(metricsToken)))
    throw new ConfigError("CAIRN_METRICS_TOKEN", `must be at least ${MIN_SECRET_LENGTH} characters without spaces (use: openssl rand -hex 32)`);
  const logLevel = (value(env, "CAIRN_LOG") ?? "info").toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) throw new ConfigError("CAIRN_LOG", `must be one of ${LOG_LEVELS.join(", ")}, got "${logLevel}"`);
  const issuer = issuerUrl(env, port);
  return {
    dataDir: resolve(cwd, value(env, "CAIRN_DATA") ?? "./data"),
    port,
    issuer,
    secret,
    databaseUrl,
    allowedTeamId,
    setupToken: value(env, "CAIRN_SETUP_TOKEN") ?? null,
    docsWebhookSecret: env.DOCS_WEBHOOK_SECRET ?? "",
    docsHtmlTtlSeconds: integer(env, "DOCS_HTML_TTL_SECONDS", 60, 0, 86_400),
    logLevel: logLevel as LogLevel,
    logRequestsPerSecond: integer(env, "CAIRN_LOG_REQUESTS_PER_SECOND", 100, 0, 1_000_000),
    trustProxy: boolean(env, "CAIRN_TRUST_PROXY"),
    dpopNonce: boolean(env, "CAIRN_DPOP_NONCE"),
    requirePar: boolean(env, "CAIRN_REQUIRE_PAR"),
    workers: integer(env, "CAIRN_WORKERS", defaultWorkers(), 1, MAX_WORKERS),
    metricsToken,
    smtp: loadSmtpConfig(env, cwd),
    cookieDomain: cookieDomain(env, issuer),
  };
}
