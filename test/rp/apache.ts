import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { spawnOwned } from "../helpers/processes.ts";
import { freePort, tempDir } from "../helpers/temp.ts";
import { waitFor } from "../helpers/wait.ts";

const HTTPD = "/usr/sbin/apache2";
const MODULES = "/usr/lib/apache2/modules";
const OPENIDC = `${MODULES}/mod_auth_openidc.so`;

/** Why the Apache tests cannot run here, or null when Debian's httpd and mod_auth_openidc are installed. */
export const apacheSkipReason: string | null = [HTTPD, OPENIDC].every((f) => existsSync(f))
  ? null
  : `${HTTPD} or ${OPENIDC} is missing (apt-get install apache2 libapache2-mod-auth-openidc)`;

/** The mod_auth_openidc version Debian installed ("2.4.12.3"), for the test's name. */
export function openidcVersion(): string {
  // "libapache2-mod-auth-openidc\t2.4.12.3-2+deb12u5": the upstream version is before the dash.
  const out = Bun.spawnSync(["dpkg-query", "-W", "libapache2-mod-auth-openidc"]).stdout.toString();
  return (
    out
      .split("\t")[1]
      ?.replace(/-[^-]*$/, "")
      .trim() || "unknown"
  );
}

/**
 * The protected page: what mod_auth_openidc hands the application (REMOTE_USER, the OIDC_CLAIM_*
 * variables and OIDC_access_token), echoed by server-side includes so no CGI is needed.
 */
const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Protected by mod_auth_openidc</title></head><body>
<h1>Protected by mod_auth_openidc</h1>
<dl>
<dt>REMOTE_USER</dt><dd data-var="REMOTE_USER"><!--#echo var="REMOTE_USER" --></dd>
<dt>sub</dt><dd data-var="OIDC_CLAIM_sub"><!--#echo var="OIDC_CLAIM_sub" --></dd>
<dt>preferred_username</dt><dd data-var="OIDC_CLAIM_preferred_username"><!--#echo var="OIDC_CLAIM_preferred_username" --></dd>
<dt>email</dt><dd data-var="OIDC_CLAIM_email"><!--#echo var="OIDC_CLAIM_email" --></dd>
<dt>name</dt><dd data-var="OIDC_CLAIM_name"><!--#echo var="OIDC_CLAIM_name" --></dd>
<dt>access token</dt><dd data-var="OIDC_access_token"><!--#echo var="OIDC_access_token" --></dd>
</dl>
</body></html>
`;

/**
 * A minimal httpd.conf around `snippet` (the catalog's text, unchanged): its own ServerRoot, port,
 * pid file and error log, the modules the snippet and the page need, and nothing else.
 */
function httpdConf(dir: string, port: number, snippet: string): string {
  const modules = ["mpm_prefork", "authn_core", "authz_core", "authz_user", "dir", "mime", "include"];
  return [
    `ServerRoot "${dir}"`,
    `DefaultRuntimeDir "${dir}/run"`,
    `PidFile "${dir}/run/httpd.pid"`,
    `ErrorLog "${dir}/error.log"`,
    "LogLevel warn auth_openidc:info",
    `Listen 127.0.0.1:${port}`,
    `ServerName 127.0.0.1:${port}`,
    // A few workers, not `-X`'s one: one process waits out each idle keep-alive or preconnected
    // socket (Chromium opens some) before it serves the next.
    "StartServers 2",
    "MinSpareServers 2",
    "MaxSpareServers 4",
    "MaxRequestWorkers 8",
    ...modules.map((m) => `LoadModule ${m}_module ${MODULES}/mod_${m}.so`),
    `LoadModule auth_openidc_module ${OPENIDC}`,
    // Started as root, httpd serves from an unprivileged user: Debian's www-data.
    ...(process.getuid?.() === 0 ? ["User www-data", "Group www-data"] : []),
    "TypesConfig /dev/null",
    "AddType text/html .shtml",
    "AddOutputFilter INCLUDES .shtml",
    `DocumentRoot "${dir}/htdocs"`,
    `<Directory "${dir}/htdocs">`,
    "  Options +Includes",
    "  DirectoryIndex index.shtml",
    "</Directory>",
    "",
    "# The catalog's snippet, as the dashboard shows it:",
    snippet,
  ].join("\n");
}

export type Apache = { url: string; errorLog: () => string; stop: () => Promise<void> };

/** Starts `apache2 -D FOREGROUND` (prefork, its workers share the module's cache) on a free loopback port with `snippet` in its config. */
export async function startApache(snippet: string, port = freePort()): Promise<Apache> {
  const dir = tempDir("cairn-apache-");
  // The worker may run as www-data: it reads the pages, not the config.
  chmodSync(dir, 0o755);
  mkdirSync(join(dir, "run"));
  mkdirSync(join(dir, "htdocs"));
  writeFileSync(join(dir, "htdocs/index.shtml"), PAGE);
  const conf = join(dir, "httpd.conf");
  writeFileSync(conf, httpdConf(dir, port, snippet));
  const errorLog = () => (existsSync(join(dir, "error.log")) ? readFileSync(join(dir, "error.log"), "utf8") : "");

  // Its own process group (spawnOwned's): on stop, prefork's parent signals its whole group, which
  // would otherwise be this test process.
  const proc: Subprocess = spawnOwned([HTTPD, "-D", "FOREGROUND", "-d", dir, "-f", conf], { stdout: "ignore", stderr: "pipe" });
  const url = `http://127.0.0.1:${port}`;
  await waitFor(
    async () => {
      if (proc.exitCode !== null)
        throw new Error(`apache2 exited with ${proc.exitCode}: ${await new Response(proc.stderr as ReadableStream).text()}${errorLog()}`);
      return fetch(`${url}/`, { redirect: "manual" }).then(
        () => true,
        () => false,
      );
    },
    { what: "Apache to answer", timeoutMs: 10_000, intervalMs: 50 },
  );
  return {
    url,
    errorLog,
    async stop() {
      proc.kill("SIGTERM");
      await proc.exited;
    },
  };
}
