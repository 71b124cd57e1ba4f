import { describe, expect, it } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { integrations, loadCatalog } from "../../src/integrations/catalog.ts";
import { registrationFor } from "../../src/integrations/fill.ts";
import { CatalogError, parseIntegration } from "../../src/integrations/integration.ts";
import { proxySnippet } from "../../src/integrations/proxy-snippets.ts";
import { isCatchAll, type RedirectEntry, redirectEntryProblem } from "../../src/oauth/protocol/redirect-uri.ts";

const DIR = join(import.meta.dir, "../../src/integrations/catalog");
const files = readdirSync(DIR).filter((f) => f.endsWith(".yaml"));

/** Addresses an app may have: any host, a port or not, a path prefix or not, a trailing slash or not. */
const baseUrl = fc
  .record({
    host: fc.domain(),
    port: fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined }),
    path: fc.array(fc.stringMatching(/^[a-z0-9-]{1,10}$/), { maxLength: 3 }),
    slash: fc.boolean(),
  })
  .map(({ host, port, path, slash }) => `https://${host}${port ? `:${port}` : ""}${path.map((p) => `/${p}`).join("")}${slash ? "/" : ""}`);

describe("the integration catalog", () => {
  it("has every application the issue names, each file valid, and the bundled copy is the folder", () => {
    const ids = files.map((f) => f.replace(/\.yaml$/, ""));
    expect(
      integrations()
        .map((e) => e.id)
        .sort(),
    ).toEqual(ids.sort());
    expect(loadCatalog(Object.fromEntries(files.map((f) => [f, readFileSync(join(DIR, f)).toString("base64")])))).toEqual(integrations());
    for (const id of ["grafana", "generic-oidc", "modern-library", "apache-mod-auth-openidc"]) expect(ids).toContain(id);
  });

  for (const file of files) {
    const entry = integrations().find((e) => `${e.id}.yaml` === file);
    if (entry?.kind === "forward_auth") {
      it(`${file}: registers no app, and writes its proxy's configuration for any app address`, () => {
        expect(entry.proxy).not.toBeNull();
        expect([entry.redirect_uris, entry.scopes, entry.snippet.text]).toEqual([[], [], ""]);
        fc.assert(
          fc.property(baseUrl, (base) => {
            const app = new URL(base).origin;
            const text = proxySnippet(entry.proxy ?? "nginx", { issuer: "https://auth.example.com", appUrl: app, upstream: "http://127.0.0.1:8096" }).text;
            expect(text).toContain(new URL(app).hostname);
            expect(text).toContain("https://auth.example.com");
          }),
          { numRuns: 30 },
        );
      });
      continue;
    }
    it(`${file}: registers only exact redirect URIs, never a catch-all, whatever the address`, () => {
      if (!entry) throw new Error(`${file} did not load`);
      fc.assert(
        fc.property(baseUrl, fc.webUrl({ validSchemes: ["https"], withQueryParameters: false, withFragments: false }), (base, redirect) => {
          const input = registrationFor(entry, { base_url: base, redirect_uri: redirect.replace(/\*/g, "") });
          for (const r of input.redirect_uris ?? []) {
            const match: RedirectEntry = { uri: r.uri, match: (r.match ?? "equals") as RedirectEntry["match"] };
            expect(match.match).toBe("equals");
            expect(isCatchAll(match)).toBe(false);
            expect(redirectEntryProblem(match)).toBeNull();
            // The address as the URL standard reads it: a default port such as :443 is dropped.
            if (entry.ask === "base_url" && entry.redirect_uris.every((p) => p.includes("base_url")))
              expect(r.uri.startsWith(new URL(base).href.replace(/\/+$/, ""))).toBe(true);
          }
        }),
        // A default port the URL standard drops, once found by chance in CI, is always tried.
        { numRuns: 50, examples: [["https://a.aa:443", "https://a.aa"]] },
      );
      // The snippet is the app's configuration: it names the client and, for confidential apps, its secret.
      expect(entry.snippet.text).toContain("{{client_id}}");
      if (entry.token_endpoint_auth_method !== "none") expect(entry.snippet.text).toContain("{{client_secret}}");
    });
  }

  /** The least an OpenID Connect entry says. */
  const oidc = () => ({
    name: "X",
    category: "Generic",
    description: "d",
    docs_url: "https://x.example.com",
    ask: "base_url",
    base_url_label: "X",
    base_url_example: "https://x.example.com",
    redirect_uris: ["{{base_url}}/cb"],
    token_endpoint_auth_method: "client_secret_basic",
    id_token_signed_response_alg: "RS256",
    scopes: ["openid"],
    snippet: { title: "t", language: "ini", text: "{{client_id}} {{client_secret}}" },
  });

  it("refuses entries that would register a pattern, an unknown placeholder or an impossible key set", () => {
    const good = oidc();
    expect(parseIntegration("x", good).redirect_uris).toEqual(["{{base_url}}/cb"]);
    const bad: [Record<string, unknown>, string][] = [
      [{ redirect_uris: ["{{base_url}}/*"] }, "exact URI"],
      [{ redirect_uris: ["{{base_url}}/cb?x"] }, "exact URI"],
      [{ redirect_uris: ["https://{{base_url}}/cb"] }, "{{base_url}} and a path"],
      [{ redirect_uris: ["http://x.example.com/cb"] }, "must be https"],
      [{ redirect_uris: ["{{redirect_uri}}"] }, "{{base_url}} and a path"],
      [{ snippet: { title: "t", language: "ini", text: "{{client_id}} {{client_secret}} {{password}}" } }, "unknown placeholder {{password}}"],
      [{ snippet: { title: "t", language: "ini", text: "{{client_secret}}" } }, "{{client_id}}"],
      [{ snippet: { title: "t", language: "ini", text: "{{client_id}}" } }, "{{client_secret}}"],
      [{ id_token_signed_response_alg: "ML-DSA-65", jwks: "classic" }, "classic holds no ML-DSA-65 key"],
      [{ id_token_signed_response_alg: "HS256" }, "id_token_signed_response_alg must be one of"],
      [{ token_endpoint_auth_method: "private_key_jwt" }, "token_endpoint_auth_method must be one of"],
      [{ scopes: ["profile"] }, "scopes must include openid"],
      [{ scopes: ["openid", "everything"] }, "scopes: unknown everything"],
      [{ catch_all: true }, "unknown field catch_all"],
    ];
    for (const [change, message] of bad) {
      const raw = { ...good, ...change };
      expect(() => parseIntegration("x", raw)).toThrow(CatalogError);
      expect(() => parseIntegration("x", raw)).toThrow(message);
    }
    expect(() => parseIntegration("X Y", good)).toThrow("lowercase");
  });

  it("reads a forward-auth entry as one that registers nothing, and refuses one with OpenID Connect fields, no proxy or placeholders", () => {
    const good = { kind: "forward_auth", proxy: "caddy", name: "C", category: "Forward auth", description: "d", docs_url: "https://c.example.com" };
    const entry = parseIntegration("c", good);
    expect([entry.kind, entry.proxy, entry.ask, entry.redirect_uris, entry.base_url_example]).toEqual([
      "forward_auth",
      "caddy",
      "base_url",
      [],
      "https://app.home.example",
    ]);
    expect(parseIntegration("g", oidc()).kind).toBe("oidc");
    const bad: [Record<string, unknown>, string][] = [
      [{ redirect_uris: ["{{base_url}}/cb"] }, "unknown field redirect_uris"],
      [{ proxy: "apache" }, "proxy must be one of nginx, caddy, traefik"],
      [{ proxy: undefined }, "proxy must be one of"],
      [{ notes: "Cairn at {{issuer}}" }, "no placeholders"],
      [{ kind: "saml" }, "kind must be one of oidc, forward_auth"],
    ];
    for (const [change, message] of bad) expect(() => parseIntegration("c", { ...good, ...change })).toThrow(message);
    expect(() => parseIntegration("g", { ...oidc(), ...good, kind: "oidc" })).toThrow("unknown field proxy");
  });
});
