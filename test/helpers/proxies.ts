import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { spawnOwned } from "./processes.ts";
import { tempDir } from "./temp.ts";
import { waitFor } from "./wait.ts";

export type ProxyKind = "nginx" | "caddy";

const BINARIES: Record<ProxyKind, string> = { nginx: "/usr/sbin/nginx", caddy: "/usr/bin/caddy" };

/** Why the tests of `kind` cannot run here, or null when Debian's package is installed. */
export const proxySkipReason = (kind: ProxyKind): string | null =>
  existsSync(BINARIES[kind]) ? null : `${BINARIES[kind]} is missing (apt-get install ${kind})`;

/** The version the package installed ("1.22.1", "2.6.2"), for the test's name. */
export function proxyVersion(kind: ProxyKind): string {
  if (!existsSync(BINARIES[kind])) return "(not installed)";
  // nginx prints "nginx version: nginx/1.22.1" on stderr; Caddy prints "2.6.2" (or "v2.x.y h1:…") on stdout.
  const run = Bun.spawnSync(kind === "nginx" ? [BINARIES.nginx, "-v"] : [BINARIES.caddy, "version"]);
  const out = `${run.stdout.toString()} ${run.stderr.toString()}`;
  return /(\d+\.\d+\.\d+)/.exec(out)?.[1] ?? "unknown";
}

/**
 * The snippet with Cairn's check reached at 127.0.0.1. The proxies resolve names through the
 * system, where no DNS knows `*.home.test` (only the browser maps them, by its resolver rules), so
 * the lines that call Cairn (nginx `proxy_pass`, Caddy `forward_auth`) name the loopback address;
 * everything else, the sign-in redirects the browser follows included, is the catalog's text.
 */
function checkOnLoopback(snippet: string, issuer: string): string {
  const { host, port } = new URL(issuer);
  return snippet
    .split("\n")
    .map((line) => (/^\s*(proxy_pass|forward_auth)\s/.test(line) ? line.replaceAll(host, `127.0.0.1:${port}`) : line))
    .join("\n");
}

/** A minimal nginx.conf around the catalog's server blocks: its own pid, logs and temp folders. */
function nginxConf(dir: string, snippets: string[]): string {
  return [
    // Started as root, nginx serves from an unprivileged worker; it makes the temp folders below
    // and hands them to that user.
    ...(process.getuid?.() === 0 ? ["user nobody nogroup;"] : []),
    "worker_processes 1;",
    `pid ${dir}/nginx.pid;`,
    `error_log ${dir}/error.log info;`,
    "events { worker_connections 256; }",
    "http {",
    `  access_log ${dir}/access.log;`,
    ...["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map((kind) => `  ${kind}_temp_path ${dir}/${kind}-temp;`),
    "",
    "# The catalog's snippets, as the dashboard shows them:",
    ...snippets,
    "}",
  ].join("\n");
}

/** A Caddyfile of the catalog's site blocks, behind global options that keep Caddy local: no admin endpoint, no certificates. */
function caddyfile(dir: string, snippets: string[]): string {
  return [
    "{",
    "\tadmin off",
    "\tauto_https off",
    `\tstorage file_system ${dir}/data`,
    "}",
    "",
    "# The catalog's snippets, as the dashboard shows them:",
    ...snippets,
  ].join("\n");
}

/**
 * A round-robin load balancer on 127.0.0.1:`port` in front of `upstreams` (`http://127.0.0.1:<port>`),
 * as an operator runs several Cairn instances (issue 46): WebSocket upgrades and unbuffered
 * streams pass, the client's address goes on in X-Forwarded-For, and an instance that refuses
 * connections is skipped for a while (nginx's defaults; Caddy's `fail_duration`), its refused
 * requests tried on the other (nginx's `proxy_next_upstream error`; Caddy's `lb_try_duration`).
 */
export function loadBalancerConfig(kind: ProxyKind, { port, upstreams }: { port: number; upstreams: string[] }): string {
  const hosts = upstreams.map((url) => new URL(url).host);
  if (kind === "caddy")
    return [
      `http://127.0.0.1:${port} {`,
      `\treverse_proxy ${hosts.join(" ")} {`,
      "\t\tlb_policy round_robin",
      "\t\tlb_try_duration 5s",
      "\t\tfail_duration 30s",
      "\t}",
      "}",
    ].join("\n");
  return [
    "map $http_upgrade $connection_upgrade {",
    "    default upgrade;",
    "    '' close;",
    "}",
    "upstream cairn {",
    ...hosts.map((host) => `    server ${host};`),
    "}",
    "server {",
    `    listen 127.0.0.1:${port};`,
    "    location / {",
    "        proxy_pass http://cairn;",
    "        proxy_http_version 1.1;",
    "        proxy_set_header Host $http_host;",
    "        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;",
    "        proxy_set_header X-Forwarded-Proto $scheme;",
    "        proxy_set_header Upgrade $http_upgrade;",
    "        proxy_set_header Connection $connection_upgrade;",
    "        # Server-Sent Events leave as they are written; a stream may stay open for long.",
    "        proxy_buffering off;",
    "        proxy_read_timeout 1h;",
    "    }",
    "}",
  ].join("\n");
}

export type RunningProxy = {
  kind: ProxyKind;
  port: number;
  /** `http://<host>:<port><path>`: an app behind this proxy as the browser addresses it. */
  url(host: string, path?: string): string;
  /** A request from this process to `host`'s app through the proxy (the name resolved by hand: the Host header). */
  fetch(host: string, path: string, headers?: Record<string, string>): Promise<Response>;
  /** A GET written byte for byte, for a target fetch would rewrite (it resolves `..`): the answer's status. */
  rawGet(host: string, target: string): Promise<number>;
  /** What the proxy logged (its error log, Caddy's output), for a failure message. */
  log(): string;
  stop(): Promise<void>;
};

/**
 * Starts real nginx or Caddy on `port` (loopback's free port; every site of the snippets listens
 * there, told apart by host) with the catalog's `snippets` for `issuer`, and resolves once it answers.
 */
export async function startProxy(kind: ProxyKind, { snippets, issuer, port }: { snippets: string[]; issuer: string; port: number }): Promise<RunningProxy> {
  const dir = tempDir(`cairn-${kind}-`);
  // nginx's worker may run as nobody: it must reach the temp folders inside.
  chmodSync(dir, 0o755);
  const local = snippets.map((s) => checkOnLoopback(s, issuer));
  const output = join(dir, "output.log");
  let command: string[];
  let env: Record<string, string> = {};
  if (kind === "nginx") {
    const conf = join(dir, "nginx.conf");
    writeFileSync(conf, nginxConf(dir, local));
    command = [BINARIES.nginx, "-p", `${dir}/`, "-c", conf, "-g", "daemon off;"];
  } else {
    const conf = join(dir, "Caddyfile");
    writeFileSync(conf, caddyfile(dir, local));
    command = [BINARIES.caddy, "run", "--adapter", "caddyfile", "--config", conf];
    // Caddy keeps its state under HOME and the XDG folders: the test's, not the machine's.
    env = { HOME: dir, XDG_DATA_HOME: join(dir, "data"), XDG_CONFIG_HOME: join(dir, "config") };
  }
  const proc = spawnOwned(command, { cwd: dir, env: { ...process.env, ...env }, stdout: "ignore", stderr: Bun.file(output) });
  const read = (file: string) => (existsSync(file) ? readFileSync(file, "utf8") : "");
  const log = () => read(output) + read(join(dir, "error.log"));
  await waitFor(
    async () => {
      if (proc.exitCode !== null) throw new Error(`${kind} exited with ${proc.exitCode}:\n${log()}`);
      return fetch(`http://127.0.0.1:${port}/`, { redirect: "manual" }).then(
        () => true,
        () => false,
      );
    },
    { what: `${kind} to answer`, timeoutMs: 10_000, intervalMs: 50 },
  );
  return {
    kind,
    port,
    url: (host, path = "/") => `http://${host}:${port}${path}`,
    fetch: (host, path, headers = {}) => fetch(`http://127.0.0.1:${port}${path}`, { headers: { ...headers, host: `${host}:${port}` }, redirect: "manual" }),
    rawGet: (host, target) => rawGet(port, `${host}:${port}`, target),
    log,
    async stop() {
      proc.kill("SIGTERM");
      await proc.exited;
    },
  };
}

function rawGet(port: number, host: string, target: string): Promise<number> {
  return new Promise((resolve, reject) => {
    let answer = "";
    const socket = connect(port, "127.0.0.1", () => socket.write(`GET ${target} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`));
    socket.on("data", (chunk) => {
      answer += chunk.toString("latin1");
    });
    socket.on("end", () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0)));
    socket.on("error", reject);
  });
}

/** What the app behind the proxy received: its host, method, path with query, and every `Remote-*` header. */
export type Echoed = { host: string; method: string; path: string; remote: Record<string, string> };

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The protected app: a Bun server on loopback that answers what it received (a page for a
 * browser, JSON otherwise) and keeps each request, so a test can tell that one never reached it.
 */
export function startEchoApp() {
  const seen: Echoed[] = [];
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(request) {
      const url = new URL(request.url);
      const remote = Object.fromEntries([...request.headers].filter(([name]) => name.toLowerCase().startsWith("remote-")));
      const echoed: Echoed = { host: request.headers.get("host") ?? "", method: request.method, path: url.pathname + url.search, remote };
      seen.push(echoed);
      const json = JSON.stringify(echoed, null, 2);
      if (!request.headers.get("accept")?.includes("text/html")) return Response.json(echoed);
      return new Response(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Protected app</title></head><body><h1>Protected app</h1><pre data-echo>${escapeHtml(json)}</pre></body></html>`,
        { headers: { "content-type": "text/html; charset=utf-8" } },
      );
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    /** Every request the app received, in order. */
    seen,
    stop: () => server.stop(true),
  };
}

export type EchoApp = ReturnType<typeof startEchoApp>;
