import type { ProxyKind } from "../contract/api/integration-lists.ts";
import { DEFAULT_IDENTITY_HEADERS } from "../contract/forward-auth.ts";
import { badInput } from "../identity/users/identity.errors.ts";

export type { ProxyKind } from "../contract/api/integration-lists.ts";

/** The headers Cairn's check answers with (a rule may rename them; the snippets name the defaults). */
const IDENTITY = Object.values(DEFAULT_IDENTITY_HEADERS);
const FORWARD_AUTH = "/api/authz/forward-auth";
const AUTH_REQUEST = "/api/authz/auth-request";

// Names as DNS and the proxies' config files take them: the values are written into those files,
// so nothing that could end a directive (`;`, `{`, quotes, `$`) gets through, though URL allows it.
const HOST = /^(?:[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*$|^\[[0-9a-f:.]+\]$/;

/** `host` is host[:port] with the port only when not the scheme's default; `port` is always set. */
type Address = { https: boolean; hostname: string; port: string; host: string };

function address(field: string, raw: string, example: string): Address {
  let url: URL | null = null;
  try {
    url = new URL(raw.trim());
  } catch {}
  if (!url || (url.protocol !== "https:" && url.protocol !== "http:") || !HOST.test(url.hostname))
    throw badInput(`${field} must be an http:// or https:// address with a plain host name, such as ${example}.`);
  if (url.username || url.password || url.pathname !== "/" || url.search || url.hash || /[?#]/.test(raw))
    throw badInput(`${field} is a scheme, a host and an optional port only (no path, user, query or fragment), such as ${example}.`);
  const https = url.protocol === "https:";
  return { https, hostname: url.hostname, port: url.port || (https ? "443" : "80"), host: url.host };
}

/** The issuer's origin and path (an issuer may sit below a path: its endpoints do too). */
function issuerParts(issuer: string) {
  const url = new URL(issuer);
  return {
    https: url.protocol === "https:",
    origin: url.origin,
    host: url.host,
    hostname: url.hostname,
    port: url.port,
    path: url.pathname.replace(/\/+$/, ""),
  };
}

const slug = (a: Address) =>
  `${a.hostname.replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "")}${a.host.includes(":") && !a.hostname.startsWith("[") ? `-${a.port}` : ""}`;

function nginx(issuer: string, app: Address, upstream: Address): string {
  const cairn = issuerParts(issuer);
  const certificate = app.https
    ? [`    ssl_certificate /etc/letsencrypt/live/${app.hostname}/fullchain.pem;`, `    ssl_certificate_key /etc/letsencrypt/live/${app.hostname}/privkey.pem;`]
    : [];
  const names = IDENTITY.map((h) => [h, `$cairn_${h.slice("Remote-".length).toLowerCase()}`] as const);
  const tls = cairn.https
    ? [
        "        # Cairn's certificate is checked (Debian's CA bundle) and named by SNI.",
        "        proxy_ssl_server_name on;",
        "        proxy_ssl_verify on;",
        "        proxy_ssl_trusted_certificate /etc/ssl/certs/ca-certificates.crt;",
      ]
    : [];
  return [
    `# Cairn decides every request to ${app.host} (nginx auth_request).`,
    "server {",
    `    listen ${app.port}${app.https ? " ssl" : ""};`,
    `    server_name ${app.hostname};`,
    ...certificate,
    "",
    "    location / {",
    "        auth_request /internal/cairn-authz;",
    ...names.map(([h, v]) => `        auth_request_set ${v} $upstream_http_${h.toLowerCase().replace(/-/g, "_")};`),
    "        # Signed out, or a second factor needed: 401 naming Cairn's sign-in URL, which comes back here.",
    "        auth_request_set $cairn_sign_in $upstream_http_location;",
    "        error_page 401 = @cairn_sign_in;",
    "",
    "        # Set here, a client's own Remote-* headers never reach the app (an empty value is not sent).",
    ...names.map(([h, v]) => `        proxy_set_header ${h} ${v};`),
    "        proxy_set_header Host $http_host;",
    "        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;",
    "        proxy_set_header X-Forwarded-Proto $scheme;",
    `        proxy_pass ${upstream.https ? "https" : "http"}://${upstream.hostname}:${upstream.port};`,
    "    }",
    "",
    "    location = /internal/cairn-authz {",
    "        internal;",
    `        proxy_pass ${cairn.origin}${cairn.path}${AUTH_REQUEST};`,
    "        proxy_pass_request_body off;",
    '        proxy_set_header Content-Length "";',
    `        proxy_set_header Host ${cairn.host};`,
    "        proxy_set_header X-Original-URL $scheme://$http_host$request_uri;",
    "        proxy_set_header X-Original-Method $request_method;",
    ...tls,
    "    }",
    "",
    "    location @cairn_sign_in {",
    "        # A refused personal access token names no sign-in: the API client gets the 401 and its challenge.",
    '        if ($cairn_sign_in = "") {',
    "            return 401;",
    "        }",
    "        return 302 $cairn_sign_in;",
    "    }",
    "}",
    "",
  ].join("\n");
}

function caddy(issuer: string, app: Address, upstream: Address): string {
  const cairn = issuerParts(issuer);
  // An http:// address must say so: a bare host name makes Caddy serve it over https.
  const site = app.https ? app.host : `http://${app.hostname}:${app.port}`;
  const auth = cairn.https ? cairn.origin : `${cairn.hostname}:${cairn.port || "80"}`;
  const to = upstream.https ? `https://${upstream.hostname}:${upstream.port}` : `${upstream.hostname}:${upstream.port}`;
  return [
    `# Cairn decides every request to ${app.host} (Caddy forward_auth).`,
    `${site} {`,
    // Caddy orders request_header after forward_auth: a route keeps the order as written.
    "\troute {",
    "\t\t# A client's own Remote-* headers never reach the app: only Cairn's answer sets them.",
    ...IDENTITY.map((h) => `\t\trequest_header -${h}`),
    `\t\tforward_auth ${auth} {`,
    `\t\t\turi ${cairn.path}${FORWARD_AUTH}`,
    `\t\t\tcopy_headers ${IDENTITY.join(" ")}`,
    "\t\t\theader_up Host {upstream_hostport}",
    "\t\t}",
    "\t\t# Caddy 2.6 leaves a header Cairn did not send as a placeholder's text: removed here.",
    ...IDENTITY.flatMap((h) => {
      const m = `@cairn_no_${h.slice("Remote-".length).toLowerCase()}`;
      return [`\t\t${m} header_regexp ${h} ^\\{http\\.reverse_proxy\\.header\\.`, `\t\trequest_header ${m} -${h}`];
    }),
    `\t\treverse_proxy ${to}`,
    "\t}",
    "}",
    "",
  ].join("\n");
}

function traefik(issuer: string, app: Address, upstream: Address): string {
  const cairn = issuerParts(issuer);
  const name = slug(app);
  return [
    `# Traefik dynamic configuration (file provider): Cairn decides every request to ${app.host}.`,
    "# The cairn middleware is the same for every app; entry points are named as in Traefik's docs.",
    "http:",
    "  routers:",
    `    ${name}:`,
    `      rule: "Host(\`${app.hostname}\`)"`,
    `      entryPoints: [${app.https ? "websecure" : "web"}]`,
    "      middlewares: [cairn]",
    `      service: ${name}`,
    ...(app.https ? ["      tls: {}"] : []),
    "  middlewares:",
    "    cairn:",
    "      forwardAuth:",
    `        address: "${cairn.origin}${cairn.path}${FORWARD_AUTH}"`,
    "        # Traefik sends the request's own X-Forwarded-* headers, never a client's.",
    "        trustForwardHeader: false",
    "        # Replaced on every request: a client's own Remote-* headers never reach the app.",
    "        authResponseHeaders:",
    ...IDENTITY.map((h) => `          - ${h}`),
    "  services:",
    `    ${name}:`,
    "      loadBalancer:",
    "        servers:",
    `          - url: "${upstream.https ? "https" : "http"}://${upstream.host}"`,
    "",
  ].join("\n");
}

const KINDS = {
  nginx: { title: (a: Address) => `/etc/nginx/sites-enabled/${a.hostname}.conf`, language: "nginx", make: nginx },
  caddy: { title: () => "Caddyfile (a site block)", language: "caddyfile", make: caddy },
  traefik: { title: (a: Address) => `Traefik dynamic configuration (file provider): cairn-${slug(a)}.yml`, language: "yaml", make: traefik },
} as const;

/**
 * The proxy configuration that protects the app at `appUrl` (scheme://host[:port]) with Cairn's
 * forward auth at `issuer`, proxying to `upstream` (scheme://host[:port]). A bad address throws
 * the API's 400 `invalid_request`, naming `app_url` or `upstream`.
 */
export function proxySnippet(kind: ProxyKind, o: { issuer: string; appUrl: string; upstream: string }): { title: string; language: string; text: string } {
  const app = address("app_url", o.appUrl, "https://app.home.example");
  const upstream = address("upstream", o.upstream, "http://127.0.0.1:8096");
  const k = KINDS[kind];
  return { title: k.title(app), language: k.language, text: k.make(o.issuer, app, upstream) };
}
