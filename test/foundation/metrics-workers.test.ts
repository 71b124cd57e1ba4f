import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { type RunningServer, startServer } from "../helpers/cli.ts";
import { scrape, sampleValue } from "../helpers/metrics.ts";
import { freePort, tempDir } from "../helpers/temp.ts";
import { requestsByWorker, WORKERS_PATIENCE_MS, workerListening } from "../helpers/workers.ts";

/*
 * With CAIRN_WORKERS=2 the kernel hands each connection to either process; Prometheus scrapes one
 * address and must see the instance, not whichever process it reached: every scrape answers the
 * sum over both workers.
 */
describe("GET /metrics with CAIRN_WORKERS=2", () => {
  const port = freePort();
  const url = `http://127.0.0.1:${port}`;
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ CAIRN_DATA: tempDir(), PORT: String(port), CAIRN_ISSUER: url, CAIRN_WORKERS: "2" });
    await workerListening(server);
  }, WORKERS_PATIENCE_MS + 30_000);
  afterAll(() => server.stop());

  /** Log lines of answered requests for `path`, by worker, once `total` came. */
  const servedBy = (path: string, total: number) => requestsByWorker(server, (logged) => logged === path, total, path);

  it(
    "answers for both workers, whichever one the scrape reaches",
    async () => {
      // Each on a connection of its own, so the kernel spreads them over the workers.
      const answers = await Promise.all(Array.from({ length: 40 }, () => fetch(`${url}/healthz`, { headers: { connection: "close" } })));
      expect(answers.every((r) => r.status === 200)).toBe(true);
      expect((await servedBy("/healthz", 40)).every((n) => n > 0)).toBe(true);
      const healthz = { method: "GET", route: "/healthz", status: "200" };
      // Scrapes until each worker answered one (all 30 to one worker: 1 in 500 million).
      for (let i = 0; i < 30 && !(await servedBy("/metrics", i)).every((n) => n > 0); i++) {
        const s = await scrape(url, { connection: "close" });
        expect(sampleValue(s, "cairn_http_requests_total", healthz)).toBe(40);
        expect(sampleValue(s, "cairn_worker_processes")).toBe(2);
        // Process metrics describe one process each: one series per worker.
        expect(sampleValue(s, "process_resident_memory_bytes", { worker: "0" })).toBeGreaterThan(0);
        expect(sampleValue(s, "process_resident_memory_bytes", { worker: "1" })).toBeGreaterThan(0);
      }
      expect((await servedBy("/metrics", 1)).every((n) => n > 0)).toBe(true);
    },
    2 * WORKERS_PATIENCE_MS,
  );
});
