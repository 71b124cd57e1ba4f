import { statSync } from "node:fs";
import { and, count, gt, isNull } from "drizzle-orm";
import type { AppContext } from "../context/context.ts";
import { sessions } from "../identity/sessions/sessions.table.ts";
import { wsSessions } from "../workspace/storage/session.table.ts";
import { type FamilySnapshot, mergeSnapshots, renderText } from "../metrics/metrics.registry.ts";

/** The text format's media type (Prometheus exposition format 0.0.4). */
export const METRICS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

const gauge = (name: string, help: string, labelNames: string[], series: [string[], number][]): FamilySnapshot => ({
  name,
  help,
  type: "gauge",
  labelNames,
  series: series.map(([labels, value]) => ({ labels, value })),
});

const fileSize = (path: string) => statSync(path, { throwIfNoEntry: false })?.size ?? 0;

/** What belongs to the instance rather than to a process, read once per scrape. */
async function instanceFamilies(ctx: AppContext, processes: number): Promise<FamilySnapshot[]> {
  const now = ctx.clock.now();
  const accounts = await ctx.db
    .select({ n: count() })
    .from(sessions)
    .where(and(isNull(sessions.revokedAt), gt(sessions.expiresAt, now)))
    .get();
  const workspace = await ctx.db
    .select({ n: count() })
    .from(wsSessions)
    .where(and(isNull(wsSessions.revokedAt), gt(wsSessions.expiresAt, now)))
    .get();
  // The SQLite file's size; on PostgreSQL the server's own monitoring tells the database's.
  const file = ctx.db.$dialect === "sqlite" ? ctx.db.$client.filename : null;
  return [
    gauge("cairn_build_info", "Always 1; the version of Cairn serving.", ["version"], [[[ctx.version], 1]]),
    gauge("cairn_worker_processes", "Processes whose numbers this answer adds up (CAIRN_WORKERS when all answered).", [], [[[], processes]]),
    gauge(
      "cairn_sessions_active",
      "Sessions neither expired nor revoked: account sessions at the identity provider, and the workspace's.",
      ["kind"],
      [
        [["account"], accounts?.n ?? 0],
        [["workspace"], workspace?.n ?? 0],
      ],
    ),
    ...(file === null
      ? []
      : [
          gauge(
            "cairn_database_size_bytes",
            "Size of the SQLite database file and of its write-ahead log.",
            ["file"],
            [
              [["main"], fileSize(file)],
              [["wal"], fileSize(`${file}-wal`)],
            ],
          ),
        ]),
  ];
}

/** The whole instance in the text format: every process's counters added up, then what the database says. */
export async function metricsText(ctx: AppContext): Promise<string> {
  let perProcess: Awaited<ReturnType<AppContext["metrics"]["gather"]>>;
  try {
    perProcess = await ctx.metrics.gather();
  } catch {
    // The primary is gone or stuck (this worker is about to stop): this process's own numbers.
    perProcess = [ctx.metrics.registry.snapshot()];
  }
  return renderText([...(await instanceFamilies(ctx, perProcess.length)), ...mergeSnapshots(perProcess)]);
}
