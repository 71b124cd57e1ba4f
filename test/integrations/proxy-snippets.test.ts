import { describe, expect, it } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { proxySnippet } from "../../src/integrations/proxy-snippets.ts";
import { yaml } from "../../src/shared/yaml.ts";
import { tempDir } from "../helpers/temp.ts";

const ISSUER = "https://auth.home.example";
const lines = (text: string) => text.split("\n").map((l) => l.trim());

const NGINX = "/usr/sbin/nginx";
const CADDY = "/usr/bin/caddy";
for (const binary of [NGINX, CADDY])
  if (!existsSync(binary)) console.warn(`skipping its configuration check: ${binary} is missing (apt-get install nginx caddy)`);

/** Runs the proxy's own check of a configuration written into a fresh folder. */
function check(binary: string, args: (dir: string) => string[], files: (dir: string) => Record<string, string>) {
  const dir = tempDir("cairn-snippet-");
  for (const [name, text] of Object.entries(files(dir))) writeFileSync(join(dir, name), text);
  const run = Bun.spawnSync([binary, ...args(dir)], { env: { PATH: process.env.PATH ?? "", HOME: dir, XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir } });
  return { ok: run.exitCode === 0, out: `${run.stdout.toString()}${run.stderr.toString()}` };
}

describe("the nginx snippet (auth_request)", () => {
  const s = proxySnippet("nginx", { issuer: ISSUER, appUrl: "https://app.home.example/", upstream: "http://127.0.0.1:8096" });
  const l = lines(s.text);

  it("asks Cairn's auth-request endpoint about every request, without the body, naming the original URL and method", () => {
    expect(s.language).toBe("nginx");
    expect(l).toContain("server_name app.home.example;");
    expect(l).toContain("listen 443 ssl;");
    expect(l).toContain("auth_request /internal/cairn-authz;");
    expect(l).toContain("location = /internal/cairn-authz {");
    expect(l).toContain("internal;");
    expect(l).toContain("proxy_pass https://auth.home.example/api/authz/auth-request;");
    expect(l).toContain("proxy_pass_request_body off;");
    expect(l).toContain('proxy_set_header Content-Length "";');
    expect(l).toContain("proxy_set_header Host auth.home.example;");
    expect(l).toContain("proxy_set_header X-Original-URL $scheme://$http_host$request_uri;");
    expect(l).toContain("proxy_set_header X-Original-Method $request_method;");
    expect(l).toContain("proxy_ssl_server_name on;");
  });

  it("passes Cairn's four identity headers to the app, set by nginx so a client's own never get through", () => {
    for (const [header, v] of [
      ["Remote-User", "user"],
      ["Remote-Email", "email"],
      ["Remote-Name", "name"],
      ["Remote-Groups", "groups"],
    ] as const) {
      expect(l).toContain(`auth_request_set $cairn_${v} $upstream_http_${header.toLowerCase().replace("-", "_")};`);
      expect(l).toContain(`proxy_set_header ${header} $cairn_${v};`);
    }
    expect(l).toContain("proxy_pass http://127.0.0.1:8096;");
  });

  it("sends a signed-out person to the sign-in URL Cairn's 401 names, and gives a refused token's 401 to the API client", () => {
    expect(l).toContain("auth_request_set $cairn_sign_in $upstream_http_location;");
    expect(l).toContain("error_page 401 = @cairn_sign_in;");
    expect(l).toContain("location @cairn_sign_in {");
    expect(l).toContain('if ($cairn_sign_in = "") {');
    expect(l).toContain("return 401;");
    expect(l).toContain("return 302 $cairn_sign_in;");
  });

  it("serves an http:// address on its port without TLS, and reaches an issuer below a path there", () => {
    const http = lines(proxySnippet("nginx", { issuer: "http://10.0.0.2:3000/cairn", appUrl: "http://app.lan:8080", upstream: "http://app-backend" }).text);
    expect(http).toContain("listen 8080;");
    expect(http.some((x) => x.startsWith("ssl_"))).toBe(false);
    expect(http).toContain("proxy_pass http://10.0.0.2:3000/cairn/api/authz/auth-request;");
    expect(http).toContain("proxy_pass http://app-backend:80;");
    expect(http.some((x) => x.startsWith("proxy_ssl_"))).toBe(false);
  });

  it.skipIf(!existsSync(NGINX))("is a configuration nginx accepts (nginx -t)", () => {
    const nginx = check(
      NGINX,
      (dir) => ["-t", "-p", dir, "-c", join(dir, "nginx.conf")],
      (dir) => {
        // Names nginx resolves at start: loopback; the certificate paths point at a made-up pair.
        const text = proxySnippet("nginx", {
          issuer: "https://localhost:9443/cairn",
          appUrl: "https://app.home.example:8443",
          upstream: "http://127.0.0.1:8096",
        })
          .text.replace(/\/etc\/letsencrypt\/live\/\S+\/fullchain\.pem/, join(dir, "cert.pem"))
          .replace(/\/etc\/letsencrypt\/live\/\S+\/privkey\.pem/, join(dir, "key.pem"));
        Bun.spawnSync([
          "openssl",
          "req",
          "-x509",
          "-newkey",
          "rsa:2048",
          "-nodes",
          "-days",
          "1",
          "-subj",
          "/CN=app",
          "-keyout",
          join(dir, "key.pem"),
          "-out",
          join(dir, "cert.pem"),
        ]);
        const temp = ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map((k) => `${k}_temp_path ${dir}/${k};`).join(" ");
        return { "nginx.conf": `pid ${dir}/nginx.pid;\nerror_log ${dir}/error.log;\nevents {}\nhttp {\naccess_log off; ${temp}\n${text}}\n` };
      },
    );
    expect(nginx.out).toContain("test is successful");
    expect(nginx.ok).toBe(true);
  });
});

describe("the Caddy snippet (forward_auth)", () => {
  const https = lines(proxySnippet("caddy", { issuer: ISSUER, appUrl: "https://app.home.example", upstream: "http://127.0.0.1:8096" }).text);
  const http = lines(proxySnippet("caddy", { issuer: "http://127.0.0.1:3000", appUrl: "http://app.home.example:8080", upstream: "https://10.0.0.9" }).text);

  it("asks Cairn's forward-auth endpoint and copies the four identity headers to the app", () => {
    expect(https).toContain("app.home.example {");
    expect(https).toContain("forward_auth https://auth.home.example {");
    expect(https).toContain("uri /api/authz/forward-auth");
    expect(https).toContain("copy_headers Remote-User Remote-Email Remote-Name Remote-Groups");
    expect(https).toContain("header_up Host {upstream_hostport}");
    expect(https).toContain("reverse_proxy 127.0.0.1:8096");
  });

  it("removes a client's own Remote-* headers first, and Caddy 2.6's placeholder text for one Cairn did not send", () => {
    const auth = https.indexOf("forward_auth https://auth.home.example {");
    for (const h of ["Remote-User", "Remote-Email", "Remote-Name", "Remote-Groups"]) {
      expect(https.indexOf(`request_header -${h}`)).toBeLessThan(auth);
      expect(https.indexOf(`request_header -${h}`)).toBeGreaterThan(https.indexOf("route {"));
      const suffix = h.slice(7).toLowerCase();
      expect(https).toContain(`@cairn_no_${suffix} header_regexp ${h} ^\\{http\\.reverse_proxy\\.header\\.`);
      expect(https.indexOf(`request_header @cairn_no_${suffix} -${h}`)).toBeGreaterThan(auth);
    }
  });

  it("gives an http:// address its scheme (else Caddy serves https), and reaches a plain-http issuer by host and port", () => {
    expect(http).toContain("http://app.home.example:8080 {");
    expect(http).toContain("forward_auth 127.0.0.1:3000 {");
    expect(http).toContain("reverse_proxy https://10.0.0.9:443");
  });

  it.skipIf(!existsSync(CADDY))("is a Caddyfile Caddy accepts (caddy validate)", () => {
    const caddy = check(
      CADDY,
      (dir) => ["validate", "--adapter", "caddyfile", "--config", join(dir, "Caddyfile")],
      () => ({
        Caddyfile: [
          "{",
          "\tadmin off",
          "}",
          ...["https://app.home.example:8443", "http://app.home.example"].map(
            (appUrl) => proxySnippet("caddy", { issuer: "https://auth.home.example/cairn", appUrl, upstream: "http://[::1]:8096" }).text,
          ),
        ].join("\n"),
      }),
    );
    expect(caddy.out).toContain("Valid configuration");
    expect(caddy.ok).toBe(true);
  });
});

describe("the Traefik snippet (ForwardAuth)", () => {
  it("is dynamic configuration: a ForwardAuth middleware at Cairn, a router for the host and a service for the upstream", () => {
    const s = proxySnippet("traefik", { issuer: ISSUER, appUrl: "https://app.home.example", upstream: "http://127.0.0.1:8096" });
    expect(s.language).toBe("yaml");
    const config = yaml().parse(s.text);
    expect(config.http.middlewares.cairn.forwardAuth).toEqual({
      address: "https://auth.home.example/api/authz/forward-auth",
      trustForwardHeader: false,
      authResponseHeaders: ["Remote-User", "Remote-Email", "Remote-Name", "Remote-Groups"],
    });
    expect(config.http.routers["app-home-example"]).toEqual({
      rule: "Host(`app.home.example`)",
      entryPoints: ["websecure"],
      middlewares: ["cairn"],
      service: "app-home-example",
      tls: {},
    });
    expect(config.http.services["app-home-example"]).toEqual({ loadBalancer: { servers: [{ url: "http://127.0.0.1:8096" }] } });
    const plain = yaml().parse(proxySnippet("traefik", { issuer: ISSUER, appUrl: "http://app.lan:8080", upstream: "http://10.0.0.3:80" }).text);
    expect(plain.http.routers["app-lan-8080"].entryPoints).toEqual(["web"]);
    expect(plain.http.routers["app-lan-8080"].tls).toBeUndefined();
  });
});

describe("the addresses a snippet takes", () => {
  it("refuses anything but scheme, host and port, naming the field", () => {
    const bad: [string, string, string][] = [
      ["ftp://app.home.example", "http://127.0.0.1:8096", "app_url must be an http:// or https:// address"],
      ["https://app.home.example/media", "http://127.0.0.1:8096", "app_url is a scheme, a host and an optional port only"],
      ["https://user@app.home.example", "http://127.0.0.1:8096", "app_url is a scheme"],
      ["https://app.home.example?x", "http://127.0.0.1:8096", "app_url is a scheme"],
      ["app.home.example", "http://127.0.0.1:8096", "app_url must be"],
      ["https://app.home.example", "http://127.0.0.1:8096/jellyfin", "upstream is a scheme"],
      ["https://app.home.example", "127.0.0.1:8096", "upstream must be"],
    ];
    for (const [appUrl, upstream, message] of bad) expect(() => proxySnippet("caddy", { issuer: ISSUER, appUrl, upstream })).toThrow(message);
  });

  it("never writes a character that could end a directive into the configuration, whatever is typed", () => {
    const typed = fc.oneof(
      fc.webUrl({ withQueryParameters: true, withFragments: true }),
      fc.string().map((s) => `https://${s}`),
      fc.tuple(fc.domain(), fc.constantFrom(";", "{", "}", "$", "'", '"', " ", "`", "\n")).map(([d, c]) => `http://${d}${c}x`),
    );
    fc.assert(
      fc.property(typed, fc.constantFrom("nginx", "caddy", "traefik" as const), (appUrl, kind) => {
        let text: string;
        try {
          text = proxySnippet(kind, { issuer: ISSUER, appUrl, upstream: "http://127.0.0.1:8096" }).text;
        } catch (e) {
          expect((e as { status?: number }).status).toBe(400);
          return;
        }
        const host = new URL(appUrl.trim()).hostname;
        expect(host).toMatch(/^[a-z0-9._\-[\]:]+$/);
        expect(text).toContain(host);
      }),
      { numRuns: 100 },
    );
  });
});
