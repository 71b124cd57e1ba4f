import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { hasControlCharacters, isMailAddress } from "../contract/mail.ts";
import { boolean, ConfigError, type Env, integer, value } from "./env.ts";

/** How Cairn reaches its mail server (CAIRN_SMTP_*). */
export type SmtpConfig = {
  host: string;
  port: number;
  /** Implicit TLS from the first byte (`smtps://`, usually port 465). */
  secure: boolean;
  /** STARTTLS is required: a server that does not offer it, or whose certificate fails, is sent nothing. */
  requireTls: boolean;
  user: string | null;
  /** Not enumerable: a log line, a JSON dump or a spread of this object leaves it out. */
  password: string | null;
  from: { name: string; address: string };
  /** PEM certificates trusted beside the system's (CAIRN_SMTP_CA), and the file they came from. */
  ca: string | null;
  caFile: string | null;
};

const SEPARATE = ["CAIRN_SMTP_HOST", "CAIRN_SMTP_PORT", "CAIRN_SMTP_USER", "CAIRN_SMTP_PASSWORD", "CAIRN_SMTP_SECURE"] as const;
const ALL = ["CAIRN_SMTP_URL", ...SEPARATE, "CAIRN_SMTP_FROM", "CAIRN_SMTP_CA"] as const;
/** What the admin page lists when mail is not set up. */
export const SMTP_REQUIRED = ["CAIRN_SMTP_URL (or CAIRN_SMTP_HOST)", "CAIRN_SMTP_FROM"] as const;

/** Where a plain connection never leaves the machine, so STARTTLS need not be required. */
export const isLoopbackHost = (host: string) => host === "localhost" || /^127\.\d+\.\d+\.\d+$/.test(host) || host === "::1";

type Server = Pick<SmtpConfig, "host" | "port" | "secure" | "user" | "password">;

// The URL holds the password: no message here repeats it.
function fromUrl(raw: string): Server {
  const name = "CAIRN_SMTP_URL";
  const shape = "must look like smtp://user:password@host:587 (STARTTLS) or smtps://user:password@host:465 (TLS)";
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(name, shape);
  }
  if (url.protocol !== "smtp:" && url.protocol !== "smtps:") throw new ConfigError(name, `${shape}; the scheme is ${url.protocol.slice(0, 12)}`);
  if (!url.hostname || (url.pathname !== "" && url.pathname !== "/") || url.search || url.hash) throw new ConfigError(name, shape);
  const secure = url.protocol === "smtps:";
  let user: string;
  let password: string;
  try {
    user = decodeURIComponent(url.username);
    password = decodeURIComponent(url.password);
  } catch {
    throw new ConfigError(name, "the user or password is not valid percent-encoding (write % as %25)");
  }
  if (Boolean(user) !== Boolean(password)) throw new ConfigError(name, "give both a user and a password, or neither");
  // An IPv6 literal comes bracketed from the URL; the socket wants it bare.
  return {
    host: url.hostname.replace(/^\[(.*)\]$/, "$1"),
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    user: user || null,
    password: password || null,
  };
}

function fromParts(env: Env, host: string): Server {
  const port = integer(env, "CAIRN_SMTP_PORT", 0, 1, 65535) || null;
  const secure = boolean(env, "CAIRN_SMTP_SECURE", port === 465);
  const user = value(env, "CAIRN_SMTP_USER") ?? null;
  // Not trimmed: a password may begin or end with a space.
  const password = env.CAIRN_SMTP_PASSWORD || null;
  if ((user === null) !== (password === null))
    throw new ConfigError(user ? "CAIRN_SMTP_PASSWORD" : "CAIRN_SMTP_USER", "set CAIRN_SMTP_USER and CAIRN_SMTP_PASSWORD together");
  if (hasControlCharacters(host) || /[\s/@]/.test(host)) throw new ConfigError("CAIRN_SMTP_HOST", "must be a host name or address");
  return { host: host.replace(/^\[(.*)\]$/, "$1"), port: port ?? (secure ? 465 : 587), secure, user, password };
}

/** `Name <address>` or a bare address. */
function sender(raw: string): SmtpConfig["from"] {
  const named = /^(.*?)\s*<([^<>]*)>$/.exec(raw);
  const name = (named?.[1] ?? "").replace(/^"(.*)"$/, "$1").trim();
  const address = named ? (named[2] as string).trim() : raw;
  if (!isMailAddress(address) || hasControlCharacters(name) || /["<>]/.test(name))
    throw new ConfigError("CAIRN_SMTP_FROM", `must be an address or Name <address>, like Cairn <cairn@example.org>; got "${raw}"`);
  return { name, address };
}

function trustedCa(file: string, cwd: string): string {
  const path = resolve(cwd, file);
  let pem: string;
  try {
    pem = readFileSync(path, "utf8");
  } catch (e) {
    throw new ConfigError("CAIRN_SMTP_CA", `cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  if (!pem.includes("-----BEGIN CERTIFICATE-----")) throw new ConfigError("CAIRN_SMTP_CA", `${path} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`);
  return pem;
}

/**
 * The mail server from CAIRN_SMTP_URL, or from CAIRN_SMTP_HOST and its companions; null when
 * none is set. A half-done setup (a sender without a server, a user without a password) stops
 * the start rather than leaving mail silently off.
 */
export function loadSmtpConfig(env: Env, cwd: string): SmtpConfig | null {
  const url = value(env, "CAIRN_SMTP_URL");
  const host = value(env, "CAIRN_SMTP_HOST");
  if (url && host) throw new ConfigError("CAIRN_SMTP_HOST", "set either CAIRN_SMTP_URL or CAIRN_SMTP_HOST, not both");
  if (!url && !host) {
    const stray = ALL.find((name) => value(env, name) !== undefined);
    if (stray) throw new ConfigError(stray, "is set, but no mail server is: set CAIRN_SMTP_URL (or CAIRN_SMTP_HOST) too, or remove it");
    return null;
  }
  if (url) {
    const stray = SEPARATE.find((name) => value(env, name) !== undefined);
    if (stray) throw new ConfigError(stray, "cannot be combined with CAIRN_SMTP_URL: put everything in the URL, or use CAIRN_SMTP_HOST");
  }
  const server = url ? fromUrl(url) : fromParts(env, host as string);
  const fromRaw = value(env, "CAIRN_SMTP_FROM");
  if (!fromRaw) throw new ConfigError("CAIRN_SMTP_FROM", "is required with a mail server: the sender, like Cairn <cairn@example.org>");
  const caFile = value(env, "CAIRN_SMTP_CA") ?? null;
  const { password, ...rest } = server;
  const smtp = {
    ...rest,
    // Off to another machine, a plain connection must upgrade; on loopback it never leaves the host.
    requireTls: !server.secure && !isLoopbackHost(server.host),
    from: sender(fromRaw),
    ca: caFile === null ? null : trustedCa(caFile, cwd),
    caFile: caFile === null ? null : resolve(cwd, caFile),
  } as SmtpConfig;
  Object.defineProperty(smtp, "password", { value: password, enumerable: false });
  return smtp;
}
