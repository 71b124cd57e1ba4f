import { describe, expect, it } from "bun:test";
import { availableParallelism } from "node:os";
import { ConfigError, loadConfig } from "../../src/config/config.ts";

/** The one line a ConfigError stops the start with. */
function stopLine(env: Record<string, string>): string {
  let error: unknown;
  try {
    loadConfig(env);
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(ConfigError);
  const message = (error as ConfigError).message;
  expect(message).not.toContain("\n");
  return message;
}

describe("configuration (ARCHITECTURE section 8)", () => {
  it("CAIRN_DATABASE_URL: a postgres:// URL, and only with CAIRN_SECRET (issue 46)", () => {
    const secret = "s".repeat(32);
    expect(loadConfig({ CAIRN_DATABASE_URL: "postgres://cairn:pw@db:5432/cairn", CAIRN_SECRET: secret }).databaseUrl).toBe("postgres://cairn:pw@db:5432/cairn");
    expect(loadConfig({ CAIRN_DATABASE_URL: "postgresql://db/cairn", CAIRN_SECRET: secret }).databaseUrl).toBe("postgresql://db/cairn");
    expect(() => loadConfig({ CAIRN_DATABASE_URL: "postgres://db/cairn" })).toThrow("CAIRN_DATABASE_URL: needs CAIRN_SECRET too");
    expect(() => loadConfig({ CAIRN_DATABASE_URL: "mysql://db/cairn", CAIRN_SECRET: secret })).toThrow("must be a postgres:// URL");
    expect(() => loadConfig({ CAIRN_DATABASE_URL: "not a url", CAIRN_SECRET: secret })).toThrow("must be a URL such as postgres://");
  });

  it("has working defaults", () => {
    const config = loadConfig({}, "/srv/cairn");
    expect(config).toEqual({
      dataDir: "/srv/cairn/data",
      port: 3000,
      issuer: "http://localhost:3000",
      secret: null,
      databaseUrl: null,
      allowedTeamId: null,
      setupToken: null,
      docsWebhookSecret: "",
      docsHtmlTtlSeconds: 60,
      logLevel: "info",
      // Past 100 a second, successful fast answers are counted rather than logged one by one.
      logRequestsPerSecond: 100,
      trustProxy: false,
      dpopNonce: false,
      requirePar: false,
      // One process per core but one (at least one, at most 16), unless CAIRN_WORKERS says otherwise.
      workers: Math.max(1, Math.min(availableParallelism() - 1, 16)),
      // /metrics answers direct loopback requests only.
      metricsToken: null,
      // No mail server: Cairn sends no mail.
      smtp: null,
      // Forward auth's cookie is for Cairn's own host only.
      cookieDomain: null,
    });
  });

  it("reads every variable", () => {
    const config = loadConfig(
      {
        CAIRN_DATA: "/var/lib/cairn",
        PORT: "8080",
        CAIRN_ISSUER: "https://id.example.com/",
        CAIRN_SECRET: "x".repeat(40),
        CAIRN_ALLOWED_TEAM_ID: "team-1",
        CAIRN_SETUP_TOKEN: "tok",
        DOCS_WEBHOOK_SECRET: "hook",
        DOCS_HTML_TTL_SECONDS: "120",
        CAIRN_LOG: "WARN",
        CAIRN_LOG_REQUESTS_PER_SECOND: "0",
        CAIRN_TRUST_PROXY: "true",
        CAIRN_DPOP_NONCE: "true",
        CAIRN_REQUIRE_PAR: "true",
        CAIRN_WORKERS: "3",
        CAIRN_METRICS_TOKEN: "m".repeat(32),
        CAIRN_COOKIE_DOMAIN: ".Example.com",
      },
      "/",
    );
    expect(config).toMatchObject({
      dataDir: "/var/lib/cairn",
      port: 8080,
      issuer: "https://id.example.com",
      allowedTeamId: "team-1",
      setupToken: "tok",
      docsWebhookSecret: "hook",
      docsHtmlTtlSeconds: 120,
      logLevel: "warn",
      logRequestsPerSecond: 0,
      trustProxy: true,
      dpopNonce: true,
      requirePar: true,
      workers: 3,
      metricsToken: "m".repeat(32),
      cookieDomain: "example.com",
    });
  });

  it.each([
    ["https://id.home.example", ".home.example", "home.example"],
    ["https://id.home.example", "home.example", "home.example"],
    ["https://id.home.example", "id.home.example", "id.home.example"],
    ["https://a.b.home.example:8443", "B.Home.Example", "b.home.example"],
  ])("takes CAIRN_COOKIE_DOMAIN for issuer %p: %p is %p", (issuer, raw, expected) => {
    expect(loadConfig({ CAIRN_ISSUER: issuer, CAIRN_COOKIE_DOMAIN: raw }).cookieDomain).toBe(expected);
  });

  it.each([
    ["https://id.home.example", "example", "at least two labels"],
    ["https://id.home.example", ".example", "at least two labels"],
    ["https://id.home.example", "other.example", "parent domain"],
    ["https://id.home.example", "me.example", "parent domain"],
    ["https://id.home.example", "sub.id.home.example", "parent domain"],
    ["https://10.0.0.5", "0.0.5", "not an address"],
    ["https://10.0.0.5", "10.0.0.5", "not an address"],
    ["https://id.home.example", "home.example/x", "domain name"],
    ["https://id.home.example", "home..example", "domain name"],
    ["https://id.home.example", "*.home.example", "domain name"],
    ["https://id.home.example", "home.example:443", "domain name"],
    ["http://localhost:3000", "localhost", "at least two labels"],
  ])("refuses, for issuer %p, CAIRN_COOKIE_DOMAIN=%p with one line", (issuer, raw, problem) => {
    const message = stopLine({ CAIRN_ISSUER: issuer, CAIRN_COOKIE_DOMAIN: raw });
    expect(message.startsWith("CAIRN_COOKIE_DOMAIN: ")).toBe(true);
    expect(message).toContain(problem);
  });

  it("derives the issuer from PORT", () => {
    expect(loadConfig({ PORT: "4100" }).issuer).toBe("http://localhost:4100");
  });

  it.each([
    ["true", true],
    [" TRUE ", true],
    ["False", false],
    ["", false],
  ])("reads CAIRN_TRUST_PROXY=%p as %p", (raw, expected) => {
    expect(loadConfig({ CAIRN_TRUST_PROXY: raw }).trustProxy).toBe(expected);
  });

  it.each(["yes", "1", "no", "0", "on", "Yes"])("refuses CAIRN_TRUST_PROXY=%p: only true or false", (raw) => {
    expect(() => loadConfig({ CAIRN_TRUST_PROXY: raw })).toThrow(new ConfigError("CAIRN_TRUST_PROXY", `must be true or false, got "${raw}"`));
  });

  it.each([
    ["PORT", "abc", "whole number"],
    ["PORT", "70000", "between 0 and 65535"],
    ["PORT", "-1", "whole number"],
    ["CAIRN_ISSUER", "not a url", "absolute URL"],
    ["CAIRN_ISSUER", "ftp://id.example.com", "https"],
    ["CAIRN_ISSUER", "https://id.example.com/?a=1", "query or fragment"],
    ["CAIRN_ISSUER", "https://id.example.com/#x", "query or fragment"],
    ["CAIRN_ISSUER", "https://u:p@id.example.com", "credentials"],
    ["CAIRN_SECRET", "short", "at least 32 characters"],
    ["CAIRN_ALLOWED_TEAM_ID", "two teams", "single team id"],
    ["DOCS_HTML_TTL_SECONDS", "1.5", "whole number"],
    ["CAIRN_LOG", "loud", "one of"],
    ["CAIRN_LOG_REQUESTS_PER_SECOND", "-5", "whole number"],
    ["CAIRN_LOG_REQUESTS_PER_SECOND", "2000000", "between 0 and 1000000"],
    ["CAIRN_WORKERS", "0", "between 1 and 16"],
    ["CAIRN_WORKERS", "two", "whole number"],
    ["CAIRN_TRUST_PROXY", "maybe", "true or false"],
    ["CAIRN_METRICS_TOKEN", "short", "at least 32 characters"],
    ["CAIRN_METRICS_TOKEN", `${"m".repeat(20)} ${"m".repeat(20)}`, "without spaces"],
  ])("stops on a bad %s (%p) with one line naming it", (name, value, problem) => {
    const message = stopLine({ [name]: value });
    expect(message.startsWith(`${name}: `)).toBe(true);
    expect(message).toContain(problem);
  });
});
