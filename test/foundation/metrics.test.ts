import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { statSync } from "node:fs";
import { join } from "node:path";
import parsePrometheusTextFormat from "parse-prometheus-text-format";
import { assertMetricsAccess } from "../../src/metrics/metrics.access.ts";
import { Registry, renderText } from "../../src/metrics/metrics.registry.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { manualClock } from "../helpers/clock.ts";
import { PASSWORD, type SignedUp, signUp, totpCode } from "../helpers/identity.ts";
import { histograms, type Scrape, scrape, sampleValue } from "../helpers/metrics.ts";
import { registerApp } from "../helpers/oauth.ts";
import { waitFor } from "../helpers/wait.ts";
import { teamOwner } from "../helpers/workspace.ts";
import { confidentialApp, obtainTokensRaw, postForm, TOKEN } from "../oauth/oauth.fixtures.ts";

/*
 * GET /metrics (issue 16): Prometheus' text format 0.0.4, read back with a real parser of that
 * format, and each counter checked to move by exactly what the test did.
 */

const FAMILIES: [string, string][] = [
  ["cairn_build_info", "GAUGE"],
  ["cairn_worker_processes", "GAUGE"],
  ["cairn_http_requests_total", "COUNTER"],
  ["cairn_http_request_duration_seconds", "HISTOGRAM"],
  ["cairn_oauth_tokens_issued_total", "COUNTER"],
  ["cairn_logins_total", "COUNTER"],
  ["cairn_sessions_active", "GAUGE"],
  ["cairn_realtime_connections", "GAUGE"],
  ["cairn_database_size_bytes", "GAUGE"],
  ["cairn_db_commit_duration_seconds", "HISTOGRAM"],
  ["process_cpu_seconds_total", "COUNTER"],
  ["process_resident_memory_bytes", "GAUGE"],
  ["process_start_time_seconds", "GAUGE"],
];

const logins = (s: Scrape, method: string, result: string) => sampleValue(s, "cairn_logins_total", { method, result });
const issued = (s: Scrape, grant_type: string) => sampleValue(s, "cairn_oauth_tokens_issued_total", { grant_type });

/** Every histogram series: buckets cumulative and non-decreasing, ending in +Inf equal to _count. */
function expectWellFormedHistograms(s: Scrape, name: string) {
  const series = histograms(s, name);
  expect(series.length).toBeGreaterThan(0);
  for (const { le, cumulative, count, sum } of series) {
    expect(le.at(-1)).toBe(Number.POSITIVE_INFINITY);
    expect(cumulative.at(-1)).toBe(count);
    for (let i = 1; i < cumulative.length; i++) expect(cumulative[i] as number).toBeGreaterThanOrEqual(cumulative[i - 1] as number);
    expect(sum).toBeGreaterThanOrEqual(0);
  }
}

describe("GET /metrics on a single process", () => {
  let app: TestApp;
  let owner: SignedUp;
  beforeAll(async () => {
    app = await startApp();
    owner = await signUp(app, "owner");
  });
  afterAll(() => app.stop());

  it("answers in the text format with every family and its type", async () => {
    const s = await scrape(app.url);
    for (const [name, type] of FAMILIES) expect([name, s.families.get(name)?.type]).toEqual([name, type]);
    expect(sampleValue(s, "cairn_build_info", { version: app.ctx.version })).toBe(1);
    expect(sampleValue(s, "cairn_worker_processes")).toBe(1);
    expect(sampleValue(s, "process_start_time_seconds", { worker: "0" })).toBeCloseTo(performance.timeOrigin / 1000, 0);
    expect(sampleValue(s, "process_resident_memory_bytes", { worker: "0" })).toBeGreaterThan(10_000_000);
    expect(sampleValue(s, "process_cpu_seconds_total", { worker: "0" })).toBeGreaterThan(0);
  });

  it("counts requests by route pattern and status, never by the raw path", async () => {
    const token = "SecretShareToken0123456789abcdefABCDEF";
    const route = { method: "GET", route: "/api/shared/:token/badge.svg" };
    const before = await scrape(app.url);
    const statuses = await Promise.all([1, 2, 3].map(async () => (await fetch(`${app.url}/api/shared/${token}/badge.svg`)).status));
    const status = String(statuses[0]);
    const after = await scrape(app.url);
    expect(sampleValue(after, "cairn_http_requests_total", { ...route, status }) - sampleValue(before, "cairn_http_requests_total", { ...route, status })).toBe(
      3,
    );
    const latencies = (s: Scrape) => histograms(s, "cairn_http_request_duration_seconds", route)[0]?.count ?? 0;
    expect(latencies(after) - latencies(before)).toBe(3);
    expect(after.text).not.toContain(token);
    // The scrapes themselves are requests too.
    expect(sampleValue(after, "cairn_http_requests_total", { method: "GET", route: "/metrics", status: "200" })).toBeGreaterThanOrEqual(1);
  });

  it("counts a failed and a successful password sign-in, and the session it opened", async () => {
    const before = await scrape(app.url);
    const wrong = await app.json("POST", "/api/auth/login", { login: "owner", password: "not the password at all" });
    expect(wrong.status).toBe(401);
    const right = await app.json("POST", "/api/auth/login", { login: "owner", password: PASSWORD });
    expect(right.status).toBe(200);
    const after = await scrape(app.url);
    expect(logins(after, "password", "failure") - logins(before, "password", "failure")).toBe(1);
    expect(logins(after, "password", "success") - logins(before, "password", "success")).toBe(1);
    const sessions = (s: Scrape) => sampleValue(s, "cairn_sessions_active", { kind: "account" });
    expect(sessions(after) - sessions(before)).toBe(1);
  });

  it("counts a refused passkey sign-in as a passkey failure", async () => {
    const before = await scrape(app.url);
    const res = await app.json("POST", "/api/auth/passkey/verify", {
      challenge_id: "no-such-challenge",
      response: { id: "x", rawId: "x", type: "public-key", response: {} },
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    const after = await scrape(app.url);
    expect(logins(after, "passkey", "failure") - logins(before, "passkey", "failure")).toBe(1);
  });

  it("counts issued tokens by grant type, and not refused grants", async () => {
    const robot = await registerApp(owner, { redirect_uris: [], grant_types: ["client_credentials"], client_credentials_scopes: ["jobs:run"] });
    const rp = await confidentialApp(app, owner);
    const alice = await signUp(app, "alice");
    const before = await scrape(app.url);
    expect(issued(before, "refresh_token")).toBe(0); // every grant type's series exists from the start
    const cc = await postForm(app, TOKEN, { grant_type: "client_credentials" }, { basic: [robot.client_id, robot.client_secret as string] });
    expect(cc.status).toBe(200);
    await obtainTokensRaw(app, alice, rp, "openid profile");
    const refused = await postForm(
      app,
      TOKEN,
      { grant_type: "authorization_code", code: "nope", redirect_uri: "https://rp.example.com/callback" },
      { basic: [rp.client_id, rp.client_secret] },
    );
    expect(refused.status).toBe(400);
    const after = await scrape(app.url);
    expect(issued(after, "client_credentials") - issued(before, "client_credentials")).toBe(1);
    expect(issued(after, "authorization_code") - issued(before, "authorization_code")).toBe(1);
    expect(issued(after, "refresh_token")).toBe(0);
  });

  it("has histograms of cumulative buckets ending in +Inf equal to _count, commits among them", async () => {
    const before = await scrape(app.url);
    await app.json("POST", "/api/auth/login", { login: "owner", password: PASSWORD }); // a write: one group commit at least
    const after = await scrape(app.url);
    expectWellFormedHistograms(after, "cairn_http_request_duration_seconds");
    expectWellFormedHistograms(after, "cairn_db_commit_duration_seconds");
    const commits = (s: Scrape) => histograms(s, "cairn_db_commit_duration_seconds")[0]?.count ?? 0;
    expect(commits(after)).toBeGreaterThan(commits(before));
    const buckets = histograms(after, "cairn_http_request_duration_seconds", { method: "POST", route: "/api/auth/login" })[0]?.le ?? [];
    expect(buckets[0]).toBe(0.001);
    expect(buckets.at(-2)).toBe(5);
  });

  it("measures the database file and its write-ahead log", async () => {
    const s = await scrape(app.url);
    const file = join(app.dataDir, "cairn.db");
    expect(sampleValue(s, "cairn_database_size_bytes", { file: "main" })).toBe(statSync(file).size);
    expect(sampleValue(s, "cairn_database_size_bytes", { file: "wal" })).toBeGreaterThan(0);
  });

  it("counts open realtime connections while they are open", async () => {
    const { user, team } = await teamOwner(app, "rita");
    const cookie = `cairn_ws=${user.browser.cookies.get("cairn_ws")}`;
    const sse = (s: Scrape) => sampleValue(s, "cairn_realtime_connections", { transport: "sse" });
    const ws = (s: Scrape) => sampleValue(s, "cairn_realtime_connections", { transport: "websocket" });
    const before = await scrape(app.url);
    const abort = new AbortController();
    const stream = await fetch(`${app.url}/api/realtime/sse?teamId=${team.id}`, { headers: { cookie }, signal: abort.signal });
    expect(stream.status).toBe(200);
    const reader = stream.body?.getReader();
    await reader?.read(); // ": connected"
    const socket = new WebSocket(`${app.url.replace("http", "ws")}/api/realtime/ws?teamId=${team.id}`, { headers: { cookie } } as never);
    await new Promise((resolve, reject) => {
      socket.onopen = resolve;
      socket.onerror = reject;
    });
    // Counted once the server has seen each open (and later each close): waited for, never slept on.
    const counted = (want: (s: Scrape) => boolean, what: string) =>
      waitFor(
        async () => {
          const s = await scrape(app.url);
          return want(s) ? s : null;
        },
        { what, timeoutMs: 30_000, intervalMs: 20 },
      );
    const open = await counted((s) => sse(s) !== sse(before) && ws(s) !== ws(before), "both connections counted");
    expect(sse(open) - sse(before)).toBe(1);
    expect(ws(open) - ws(before)).toBe(1);
    abort.abort();
    socket.close();
    const closed = await counted((s) => sse(s) === sse(before) && ws(s) === ws(before), "both connections uncounted");
    expect([sse(closed), ws(closed)]).toEqual([sse(before), ws(before)]);
  });
});

describe("cairn_logins_total for second factors", () => {
  const clock = manualClock();
  let app: TestApp;
  beforeAll(async () => {
    app = await startApp({ overrides: { clock } });
  });
  afterAll(() => app.stop());

  it("counts the password step that asks for a second factor, then TOTP and backup codes by result", async () => {
    const user = await signUp(app, "tess");
    const secret: string = (await user.browser.json("POST", "/api/oauth/me/totp")).data.secret;
    const confirmed = await user.browser.json("POST", "/api/oauth/me/totp/confirm", { code: await totpCode(secret, clock.now()) });
    expect(confirmed.status).toBe(200);
    const before = await scrape(app.url);
    const firstStep = async () => {
      const res = await app.json("POST", "/api/auth/login", { login: "tess", password: PASSWORD });
      expect(res.data.mfa_required).toBe(true);
      return res.data.mfa_token as string;
    };
    clock.advance(30_000);
    const ticket = await firstStep();
    // A code of an hour ago: wrong now.
    expect((await app.json("POST", "/api/auth/login/mfa", { mfa_token: ticket, code: await totpCode(secret, clock.now() - 3_600_000) })).status).toBe(400);
    expect((await app.json("POST", "/api/auth/login/mfa", { mfa_token: ticket, code: await totpCode(secret, clock.now()) })).status).toBe(200);
    const second = await firstStep();
    expect((await app.json("POST", "/api/auth/login/mfa", { mfa_token: second, backup_code: confirmed.data.backup_codes[0] })).status).toBe(200);
    const after = await scrape(app.url);
    const moved = (method: string, result: string) => logins(after, method, result) - logins(before, method, result);
    expect(moved("password", "mfa_required")).toBe(2);
    expect(moved("password", "success")).toBe(0);
    expect(moved("totp", "failure")).toBe(1);
    expect(moved("totp", "success")).toBe(1);
    expect(moved("backup_code", "success")).toBe(1);
  });
});

describe("who may read /metrics", () => {
  it("refuses a request that came through a proxy while no token is set, even from loopback", async () => {
    const app = await startApp();
    try {
      const res = await fetch(`${app.url}/metrics`, { headers: { "x-forwarded-for": "203.0.113.7" } });
      expect(res.status).toBe(403);
      expect(await res.text()).not.toContain("cairn_");
      expect((await fetch(`${app.url}/metrics`, { headers: { forwarded: "for=203.0.113.7" } })).status).toBe(403);
    } finally {
      await app.stop();
    }
  });

  it("refuses a peer that is not loopback while no token is set", () => {
    const request = new Request("http://cairn.example/metrics");
    const server = (address: string) => ({ requestIP: () => ({ address, family: "IPv4", port: 1 }) }) as never;
    expect(() => assertMetricsAccess({ metricsToken: null }, request, server("203.0.113.7"))).toThrow("Forbidden");
    expect(() => assertMetricsAccess({ metricsToken: null }, request, server("::ffff:10.0.0.1"))).toThrow("Forbidden");
    expect(() => assertMetricsAccess({ metricsToken: null }, request, server("::1"))).not.toThrow();
    expect(() => assertMetricsAccess({ metricsToken: null }, request, server("127.0.0.53"))).not.toThrow();
  });

  it("with CAIRN_METRICS_TOKEN, answers only a request bearing it, from anywhere (a proxy too)", async () => {
    const token = "t".repeat(40);
    const app = await startApp({ env: { CAIRN_METRICS_TOKEN: token } });
    try {
      const none = await fetch(`${app.url}/metrics`);
      expect(none.status).toBe(401);
      expect(none.headers.get("www-authenticate")).toBe('Bearer realm="metrics"');
      expect((await fetch(`${app.url}/metrics`, { headers: { authorization: `Bearer ${"t".repeat(39)}u` } })).status).toBe(401);
      const s = await scrape(app.url, { authorization: `Bearer ${token}`, "x-forwarded-for": "203.0.113.7" });
      expect(s.families.has("cairn_http_requests_total")).toBe(true);
    } finally {
      await app.stop();
    }
  });
});

describe("the text format", () => {
  it("escapes label values and help so that a parser reads back what was counted", () => {
    const registry = new Registry();
    const counter = registry.counter("weird_total", 'Help with a \\ backslash and a\nnewline and "quotes".', ["path"]);
    const odd = 'C:\\dir\\"file"\nnext';
    counter.labels(odd).inc(2);
    counter.labels("plain").inc();
    const [family] = parsePrometheusTextFormat(renderText(registry.snapshot()));
    expect(family?.help).toBe('Help with a \\ backslash and a\nnewline and "quotes".');
    expect(family?.metrics).toEqual([
      { value: "2", labels: { path: odd } },
      { value: "1", labels: { path: "plain" } },
    ]);
  });

  it("writes a histogram's buckets cumulatively, +Inf last", () => {
    const registry = new Registry();
    const histogram = registry.histogram("h_seconds", "h", [], [0.1, 1]).labels();
    for (const v of [0.05, 0.1, 0.5, 3]) histogram.observe(v);
    expect(renderText(registry.snapshot())).toBe(
      [
        "# HELP h_seconds h",
        "# TYPE h_seconds histogram",
        'h_seconds_bucket{le="0.1"} 2',
        'h_seconds_bucket{le="1"} 3',
        'h_seconds_bucket{le="+Inf"} 4',
        "h_seconds_sum 3.65",
        "h_seconds_count 4",
        "",
      ].join("\n"),
    );
  });
});
