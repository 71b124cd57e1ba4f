import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { type RunningServer, startServer } from "../helpers/cli.ts";
import { scrape, sampleValue } from "../helpers/metrics.ts";
import { freePort, tempDir } from "../helpers/temp.ts";

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
    for (let i = 0; i < 200 && !server.log.some((l) => l.includes('"msg":"worker listening"')); i++) await Bun.sleep(50);
  });
  afterAll(async () => {
    server.proc.kill("SIGTERM");
    await server.exited;
  });

  /** Log lines of answered requests for `path`, by worker. */
  const servedBy = async (path: string) => {
    await Bun.sleep(50); // log lines leave once per turn
    const lines = server.log.filter((l) => l.includes('"msg":"request"')).map((l) => JSON.parse(l) as { worker: number; path: string });
    return [0, 1].map((worker) => lines.filter((l) => l.worker === worker && l.path === path).length);
  };

  it("answers for both workers, whichever one the scrape reaches", async () => {
    // Each on a connection of its own, so the kernel spreads them over the workers.
    const answers = await Promise.all(Array.from({ length: 40 }, () => fetch(`${url}/healthz`, { headers: { connection: "close" } })));
    expect(answers.every((r) => r.status === 200)).toBe(true);
    expect((await servedBy("/healthz")).every((n) => n > 0)).toBe(true);
    const healthz = { method: "GET", route: "/healthz", status: "200" };
    for (let i = 0; i < 30 && !(await servedBy("/metrics")).every((n) => n > 0); i++) {
      const s = await scrape(url, { connection: "close" });
      expect(sampleValue(s, "cairn_http_requests_total", healthz)).toBe(40);
      expect(sampleValue(s, "cairn_worker_processes")).toBe(2);
      // Process metrics describe one process each: one series per worker.
      expect(sampleValue(s, "process_resident_memory_bytes", { worker: "0" })).toBeGreaterThan(0);
      expect(sampleValue(s, "process_resident_memory_bytes", { worker: "1" })).toBeGreaterThan(0);
    }
    expect((await servedBy("/metrics")).every((n) => n > 0)).toBe(true);
  });
});
