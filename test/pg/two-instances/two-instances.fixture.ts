import { afterAll, beforeAll } from "bun:test";
import { type RunningServer, startServer } from "../../helpers/cli.ts";
import { jarFetch } from "../../helpers/cookie-jar.ts";
import { TEST_PG_SECRET } from "../../helpers/pg-store.ts";
import { type PgCluster, pgSkipReason, startPostgres } from "../../helpers/postgres.ts";
import { loadBalancerConfig, type ProxyKind, proxySkipReason, proxyVersion, type RunningProxy, startProxy } from "../../helpers/proxies.ts";
import { freePort, tempDir } from "../../helpers/temp.ts";
import { waitFor } from "../../helpers/wait.ts";

/*
 * Issue 46, the two-instance test: two `cairn serve` processes on one PostgreSQL database, each
 * with its own data folder and port, one issuer (the balancer's URL) and one CAIRN_SECRET, behind
 * real nginx or Caddy balancing round-robin. Tests reach each instance directly (A, B) or through
 * the balancer.
 */

export type Instance = {
  name: "A" | "B";
  /** The instance's own address (http://127.0.0.1:<port>), bypassing the balancer. */
  url: string;
  server: RunningServer;
  /** A request to this instance as a browser of the issuer's site would send it (its Origin), with a cookie jar of its own. */
  json: ReturnType<typeof jarFetch>["json"];
  fetch: ReturnType<typeof jarFetch>["fetch"];
};

export type TwoInstances = {
  kind: ProxyKind;
  /** The balancer's URL: both instances' CAIRN_ISSUER. */
  issuer: string;
  a: Instance;
  b: Instance;
  balancer: RunningProxy;
  /** The shared database, for what a test counts or clears directly. */
  sql: Bun.SQL;
  /** Which instance answered `res` (through the balancer): the one whose request log holds its x-request-id. */
  servedBy(res: Response | { headers: Headers }): Promise<"A" | "B">;
  /** Both instances' logs and the balancer's, for a failure message. */
  logs(): string;
  /** Runs `body`; when it fails, prints `logs()` before the failure: what a reader needs to tell why. */
  explained<T>(body: () => Promise<T>): Promise<T>;
  stop(): Promise<void>;
};

/** Why the two-instance tests on `kind` cannot run here, or null. */
export const twoInstancesSkipReason = (kind: ProxyKind): string | null => pgSkipReason ?? proxySkipReason(kind);

/** The first balancer installed here (nginx, else Caddy), for tests where either will do; null when neither is. */
export const anyBalancer: ProxyKind | null = (["nginx", "caddy"] as const).find((kind) => proxySkipReason(kind) === null) ?? null;

/** Why the tests where either balancer will do cannot run here, or null. */
export const anyBalancerSkipReason: string | null = anyBalancer
  ? twoInstancesSkipReason(anyBalancer)
  : "neither /usr/sbin/nginx nor /usr/bin/caddy is installed (apt-get install nginx)";

/** That balancer as a test's name says it ("nginx 1.22.1"). */
export const anyBalancerName = anyBalancer ? `${anyBalancer} ${proxyVersion(anyBalancer)}` : "a balancer";

/** A start can take long on a busy machine (PostgreSQL, two Bun processes, migrations): waited for, never slept on. */
export const START_PATIENCE_MS = 120_000;

function distinctFreePorts(count: number): number[] {
  const ports = new Set<number>();
  while (ports.size < count) ports.add(freePort());
  return [...ports];
}

async function startInstance(name: "A" | "B", port: number, env: Record<string, string>, issuer: string): Promise<Instance> {
  // PORT chosen here (the balancer names it before the instance starts): startServer's own `url` does not apply.
  const server = await startServer({ ...env, PORT: String(port), CAIRN_DATA: tempDir(`cairn-${name}-`) });
  const url = `http://127.0.0.1:${port}`;
  return { name, url, server, ...jarFetch(url, issuer) };
}

/**
 * Starts a PostgreSQL cluster with one empty database, instances A and B on it at the same time
 * (one migrates, the other waits for it), and the balancer in front; `env` adds to both instances'.
 */
export async function startTwoInstances(kind: ProxyKind, env: Record<string, string> = {}): Promise<TwoInstances> {
  const cluster = (await startPostgres()) as PgCluster;
  const databaseUrl = await cluster.createDatabase();
  const [lbPort, portA, portB] = distinctFreePorts(3) as [number, number, number];
  const issuer = `http://127.0.0.1:${lbPort}`;
  const common = {
    CAIRN_DATABASE_URL: databaseUrl,
    CAIRN_SECRET: TEST_PG_SECRET,
    CAIRN_ISSUER: issuer,
    CAIRN_TRUST_PROXY: "true",
    CAIRN_WORKERS: "1",
    // Every answer logged: servedBy finds a request by its id.
    CAIRN_LOG_REQUESTS_PER_SECOND: "0",
    ...env,
  };
  const [a, b] = await Promise.all([startInstance("A", portA, common, issuer), startInstance("B", portB, common, issuer)]);
  const balancer = await startProxy(kind, { snippets: [loadBalancerConfig(kind, { port: lbPort, upstreams: [a.url, b.url] })], issuer, port: lbPort });
  const sql = new Bun.SQL(databaseUrl, { max: 2 });
  // Answers and refusals are many and each says little: their count, and every other line.
  const quiet = (line: string) => line.includes('"msg":"request"') || line.includes('"msg":"refused"');
  const logOf = (i: Instance) => {
    const lines = i.server.log.filter((line) => !quiet(line));
    return `--- instance ${i.name} (${i.url}), ${i.server.log.length - lines.length} request lines left out:\n${lines.join("\n")}\n--- stderr:\n${i.server.stderr.join("\n")}`;
  };
  const logs = () => `${logOf(a)}\n${logOf(b)}\n--- ${kind}:\n${balancer.log()}`;
  return {
    kind,
    issuer,
    a,
    b,
    balancer,
    sql,
    async servedBy(res) {
      const id = res.headers.get("x-request-id");
      if (!id) throw new Error("the answer carries no x-request-id: it did not come from an instance");
      return waitFor(() => [a, b].find((i) => i.server.log.some((line) => line.includes(id)))?.name, {
        what: `the request log line of ${id}`,
        timeoutMs: 10_000,
        intervalMs: 10,
      });
    },
    logs,
    async explained(body) {
      try {
        return await body();
      } catch (e) {
        console.error(logs());
        throw e;
      }
    },
    async stop() {
      await balancer.stop().catch(() => {});
      await Promise.all([a, b].map((i) => i.server.stop().catch(() => 0)));
      await sql.close().catch(() => {});
      await cluster.close();
    },
  };
}

/** One setup for a test file (or describe): started before its tests, stopped after them. */
export function twoInstancesTestbed(kind: ProxyKind, env: Record<string, string> = {}): { current: TwoInstances } {
  const bed = {} as { current: TwoInstances };
  beforeAll(async () => {
    bed.current = await startTwoInstances(kind, env);
  }, START_PATIENCE_MS);
  afterAll(async () => {
    await bed.current?.stop();
  }, START_PATIENCE_MS);
  return bed;
}
