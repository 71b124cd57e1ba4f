import { readdirSync } from "node:fs";
import { type MetricsBus, shareAcrossWorkers } from "./metrics.cluster.ts";
import { Registry } from "./metrics.registry.ts";

/** Request latency: a fast server answers in a millisecond or two; past 5 s something is wrong anyway. */
export const HTTP_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
/** One group commit is one fsync: a tenth of a millisecond on NVMe, tens on a busy disk. */
export const COMMIT_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1];

/** Any other method is counted as OTHER: a label value must not be chosen by whoever sends requests. */
const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

export type LoginMethod = "password" | "passkey" | "social" | "totp" | "backup_code";
/** `mfa_required`: the first step held and a second factor is asked for (its own attempt is counted under its method). */
export type LoginResult = "success" | "failure" | "mfa_required";
export type RealtimeTransport = "websocket" | "sse";

const LOGIN_METHODS: readonly LoginMethod[] = ["password", "passkey", "social", "totp", "backup_code"];

/** What Prometheus calls process metrics, for this process: `worker` says which (0 is the primary). */
function processMetrics(registry: Registry, worker: string): void {
  const cpu = registry.counter("process_cpu_seconds_total", "User and system CPU time spent, in seconds.", ["worker"]);
  const rss = registry.gauge("process_resident_memory_bytes", "Resident memory size, in bytes.", ["worker"]);
  const start = registry.gauge("process_start_time_seconds", "Start time of the process since the Unix epoch, in seconds.", ["worker"]);
  const fds = registry.gauge("process_open_fds", "Open file descriptors (connections, the database files).", ["worker"]);
  cpu.onCollect(() => {
    const { user, system } = process.cpuUsage();
    cpu.labels(worker).value = (user + system) / 1e6;
  });
  rss.onCollect(() => rss.labels(worker).set(process.memoryUsage.rss()));
  start.labels(worker).set(Math.round(performance.timeOrigin) / 1000);
  fds.onCollect(() => {
    try {
      fds.labels(worker).set(readdirSync("/proc/self/fd").length - 1); // less the listing's own
    } catch {
      // Not Linux: no /proc, no series.
    }
  });
}

/**
 * The instance's counters, kept per process and added up across CAIRN_WORKERS at scrape time
 * (`gather`). Recording is a map lookup and an addition: it runs on every request.
 */
export function createMetrics(cluster: MetricsBus, workers: number, worker: number) {
  const registry = new Registry();
  const requests = registry.counter("cairn_http_requests_total", "HTTP requests answered, by method, route pattern and status.", ["method", "route", "status"]);
  const durations = registry.histogram(
    "cairn_http_request_duration_seconds",
    "Time from a request's arrival to its answer, by method and route pattern.",
    ["method", "route"],
    HTTP_BUCKETS,
  );
  const tokens = registry.counter("cairn_oauth_tokens_issued_total", "Successful token endpoint answers, by grant type.", ["grant_type"]);
  const logins = registry.counter("cairn_logins_total", "Sign-in attempts at the identity provider, by method and result.", ["method", "result"]);
  const realtime = registry.gauge("cairn_realtime_connections", "Open realtime connections of the workspace, by transport.", ["transport"]);
  const commits = registry.histogram("cairn_db_commit_duration_seconds", "Duration of each group commit (COMMIT and its fsync).", [], COMMIT_BUCKETS).labels();
  processMetrics(registry, String(worker));
  // Every series exists from the start at zero, so a rate is right from the first event on.
  for (const method of LOGIN_METHODS) for (const result of ["success", "failure"]) logins.labels(method, result);
  for (const method of ["password", "social"]) logins.labels(method, "mfa_required");
  for (const transport of ["websocket", "sse"]) realtime.labels(transport);

  const login = (method: LoginMethod, result: LoginResult) => logins.labels(method, result).inc();
  return {
    registry,
    /** Every process's snapshot (this one first); those that have not answered within a second are left out. */
    gather: shareAcrossWorkers(cluster, workers, () => registry.snapshot()),
    request(method: string, route: string, status: number, seconds: number): void {
      const m = METHODS.has(method) ? method : "OTHER";
      requests.labels(m, route, status).inc();
      durations.labels(m, route).observe(seconds);
    },
    tokenIssued: (grantType: string) => tokens.labels(grantType).inc(),
    /** Makes the series of these grant types exist at zero, so rates work from the first token on. */
    knownGrantTypes(grantTypes: readonly string[]): void {
      for (const grantType of grantTypes) tokens.labels(grantType);
    },
    /** Counts `attempt` under `method`: a refusal (it throws) is a failure, else `resultOf` its value. */
    async countLogin<T>(method: LoginMethod, attempt: Promise<T>, resultOf: (value: T) => LoginResult | null = () => "success"): Promise<T> {
      let value: T;
      try {
        value = await attempt;
      } catch (e) {
        login(method, "failure");
        throw e;
      }
      const result = resultOf(value);
      if (result) login(method, result);
      return value;
    },
    /** A realtime connection opened; call what it answers once it closes (more calls do nothing). */
    connectionOpened(transport: RealtimeTransport): () => void {
      const cell = realtime.labels(transport);
      cell.inc();
      let open = true;
      return () => {
        if (open) cell.dec();
        open = false;
      };
    },
    commit: (seconds: number) => commits.observe(seconds),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
