/**
 * Forward auth's check (issue 45), the request a reverse proxy makes before every request it
 * passes on: `/api/authz/forward-auth` (Caddy, Traefik) and `/api/authz/auth-request` (nginx),
 * allowed with the domain cookie, against `/healthz` on the same server, their rounds in turn.
 * The table holds BENCH_RULES rules (1,000): the one that matches sits in the middle and names a
 * team, and one is a wildcard. Target: at most 1.5x the server CPU of /healthz per request.
 * `npm run bench:forward-auth`; BENCH_SECONDS, BENCH_ROUNDS, BENCH_RULES.
 */
import { alternate, cairnCommand, type Load, load, placement, type Round, startServer } from "./harness.ts";

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const RULES = Number(process.env.BENCH_RULES ?? 1000);
const TARGET = 1.5;
const MIDDLE = Math.floor(RULES / 2);
const WILDCARD = Math.floor((RULES * 3) / 4);
const fmt = (n: number, d = 0) => n.toLocaleString("en-US", { maximumFractionDigits: d, minimumFractionDigits: d });
const appHost = (i: number) => `app-${String(i).padStart(4, "0")}.bench.test`;

console.log(`measuring ${cairnCommand().join(" ")}: ${rounds} rounds of ${seconds} s, 10 connections, ${placement()}, ${fmt(RULES)} rules\n`);
const server = await startServer();
try {
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(server.url + path, {
      method,
      headers: { "content-type": "application/json", origin: server.url, ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
      redirect: "manual",
    });
    if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return res;
  };
  // The first account is the instance's admin.
  const registered = await call("POST", "/api/auth/register", { username: "bench", email: "bench@example.com", password: "bench password 123" });
  const { session_token } = (await registered.json()) as { session_token: string };
  const sessionCookie = registered.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const bearer = { authorization: `Bearer ${session_token}` };
  const team = ((await (await call("POST", "/api/oauth/me/teams", { name: "Bench team" }, bearer)).json()) as { team: { id: string } }).team;

  // A realistic mix: most rules name one app, some only paths or methods of it, some with bypass paths.
  const started = performance.now();
  for (let i = 0; i < RULES; i++) {
    const rule =
      i === MIDDLE
        ? { host: appHost(i), allow: { teams: [team.id] }, bypass_paths: ["/api/public"] }
        : i === WILDCARD
          ? { host: "*.wild.bench.test", allow: { everyone: true } }
          : {
              host: appHost(i),
              allow: i % 3 === 0 ? { admins: true } : { everyone: true },
              ...(i % 5 === 0 ? { path_prefixes: ["/admin"], methods: ["GET", "POST"] } : {}),
              ...(i % 7 === 0 ? { bypass_paths: ["/health", "/api"] } : {}),
            };
    await call("POST", "/api/oauth/admin/forward-auth/rules", rule, bearer);
  }
  console.log(`${fmt(RULES)} rules created through the API in ${fmt((performance.now() - started) / 1000, 1)} s\n`);

  // The domain cookie, as the browser gets it after signing in: Cairn's session continues to the app.
  const continued = await call("GET", `/api/authz/continue?url=${encodeURIComponent(`http://${appHost(MIDDLE)}/`)}`, undefined, { cookie: sessionCookie });
  const authz = continued.headers
    .getSetCookie()
    .map((c) => c.split(";")[0] as string)
    .find((c) => /^(__Secure-)?cairn_authz=/.test(c));
  if (!authz) throw new Error(`/api/authz/continue set no cairn_authz cookie: ${continued.status} ${continued.headers.get("set-cookie")}`);

  const forwarded = (host: string) => ({
    cookie: authz,
    "x-forwarded-method": "GET",
    "x-forwarded-proto": "http",
    "x-forwarded-host": host,
    "x-forwarded-uri": "/library/items?page=2",
  });
  const scenarios: [string, string, Record<string, string>][] = [
    ["GET /healthz", "/healthz", {}],
    [`GET /api/authz/forward-auth (rule ${fmt(MIDDLE + 1)} of ${fmt(RULES)}, a team)`, "/api/authz/forward-auth", forwarded(appHost(MIDDLE))],
    ["GET /api/authz/forward-auth (the wildcard rule)", "/api/authz/forward-auth", forwarded("media.wild.bench.test")],
    [
      `GET /api/authz/auth-request (rule ${fmt(MIDDLE + 1)} of ${fmt(RULES)}, a team)`,
      "/api/authz/auth-request",
      { cookie: authz, "x-original-url": `http://${appHost(MIDDLE)}/library/items?page=2`, "x-original-method": "GET" },
    ],
  ];
  // Each check must allow, with the identity headers, before it is measured: a refusal is cheaper.
  for (const [label, path, headers] of scenarios.slice(1)) {
    const res = await fetch(server.url + path, { headers, redirect: "manual" });
    if (res.status !== 200 || res.headers.get("remote-user") !== "bench")
      throw new Error(`${label}: ${res.status}, Remote-User ${res.headers.get("remote-user")}`);
  }

  const loads: Load[] = scenarios.map(([, path, headers]) => load(server.url + path, server.proc.pid, seconds, { headers }));
  const results = (await alternate(loads, rounds)) as Round[];
  const healthz = (results[0] as Round).cpuMsPerReq;
  const header = ["what", "req/s", "p99 ms", "CPU µs/req", "CPU / healthz", "errors", "stolen %"];
  const rows = scenarios.map(([label], i) => {
    const r = results[i] as Round;
    return [label, fmt(r.rps), fmt(r.p99, 1), fmt(r.cpuMsPerReq * 1000), `${fmt(r.cpuMsPerReq / healthz, 2)}x`, String(r.errors), fmt(r.stolenPct)];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] as number)).join(" | ")} |`;
  console.log([line(header), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n"));
  const worst = Math.max(...results.slice(1).map((r) => r.cpuMsPerReq / healthz));
  console.log(`\nworst check: ${fmt(worst, 2)}x the CPU of /healthz per request (target <= ${TARGET}x): ${worst <= TARGET ? "met" : "NOT met"}`);
} finally {
  await server.stop();
}
