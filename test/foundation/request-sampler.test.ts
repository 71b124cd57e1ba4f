import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import fc from "fast-check";
import { requestSampler, SLOW_MS } from "../../src/shared/request-sampler.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { waitFor } from "../helpers/wait.ts";

/** A sampler on a clock the test moves, whose scheduled summaries run when the test says. */
function sampler(perSecond: number) {
  let now = 0;
  const summaries: number[] = [];
  const due: { at: number; run: () => void }[] = [];
  const sample = requestSampler(
    perSecond,
    (n) => summaries.push(n),
    () => now,
    (run, ms) => due.push({ at: now + ms, run }),
  );
  /** Moves the clock to `t`, running the summaries due by then. */
  const at = (t: number) => {
    now = t;
    for (const d of due.filter((d) => d.at <= t)) {
      due.splice(due.indexOf(d), 1);
      d.run();
    }
  };
  return { sample, at, summaries, pending: () => due.length };
}

describe("request log sampling", () => {
  it("logs at most the rate's number of fast successes a second, and counts the rest in one summary a second later", () => {
    const s = sampler(3);
    const logged = Array.from({ length: 10 }, (_, i) => (s.at(i * 10), s.sample(200, 1)));
    expect(logged).toEqual([true, true, true, false, false, false, false, false, false, false]);
    expect(s.summaries).toEqual([]);
    s.at(1000);
    expect(s.summaries).toEqual([]); // due one second after the first unlogged one (t=30)
    s.at(1030);
    expect(s.summaries).toEqual([7]);
    // A new second: three more lines.
    expect([s.sample(204, 1), s.sample(302, 1), s.sample(200, 1), s.sample(200, 1)]).toEqual([true, true, true, false]);
    s.at(2100);
    expect(s.summaries).toEqual([7, 1]);
    expect(s.pending()).toBe(0);
  });

  it("always logs refusals, failures and slow answers, which do not use up the rate", () => {
    const s = sampler(2);
    // A fresh second opened by refusals and slow answers: the rate's two fast lines are still there.
    for (const status of [400, 401, 404, 429, 500, 503]) expect(s.sample(status, 1)).toBe(true);
    expect(s.sample(200, SLOW_MS)).toBe(true);
    expect([s.sample(200, 1), s.sample(200, SLOW_MS - 1), s.sample(200, 1)]).toEqual([true, true, false]);
    // And once the rate is used up, they still get theirs.
    expect([s.sample(500, 1), s.sample(204, SLOW_MS)]).toEqual([true, true]);
  });

  it("logs every request at 0", () => {
    const s = sampler(0);
    expect(Array.from({ length: 1000 }, () => s.sample(200, 1)).every(Boolean)).toBe(true);
    expect(s.pending()).toBe(0);
  });

  it("never loses count: each fast success is logged or summarized, and no second logs more than twice the rate", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 20 }),
        fc.array(fc.record({ gap: fc.integer({ min: 0, max: 400 }), status: fc.constantFrom(200, 204, 302, 400, 500), ms: fc.constantFrom(1, 5, SLOW_MS) }), {
          maxLength: 300,
        }),
        (perSecond, requests) => {
          const s = sampler(perSecond);
          let t = 0;
          const loggedFast: number[] = [];
          let fast = 0;
          for (const r of requests) {
            t += r.gap;
            s.at(t);
            const logged = s.sample(r.status, r.ms);
            const isFast = r.status < 400 && r.ms < SLOW_MS;
            if (!isFast) expect(logged).toBe(true);
            if (isFast) fast++;
            if (isFast && logged) loggedFast.push(t);
          }
          s.at(t + 10_000);
          expect(loggedFast.length + s.summaries.reduce((a, b) => a + b, 0)).toBe(fast);
          // Seconds are counted from the first request of each: any span of one second holds at most two of them.
          for (const start of loggedFast) expect(loggedFast.filter((x) => x >= start && x < start + 1000).length).toBeLessThanOrEqual(2 * perSecond);
        },
      ),
    );
  });
});

describe("request log sampling in the running app", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startApp({ env: { CAIRN_LOG_REQUESTS_PER_SECOND: "5" } });
  });
  afterAll(() => app.stop());

  it("logs five fast answers a second, every refusal, and then how many went unlogged", async () => {
    const ok = await Promise.all(Array.from({ length: 30 }, () => app.fetch("/healthz")));
    const missing = await Promise.all(Array.from({ length: 8 }, () => app.fetch("/api/missing")));
    expect(ok.every((r) => r.status === 200)).toBe(true);
    const lines = (path: string) => app.logs.filter((l) => l.msg === "request" && l.path === path);
    // Every refusal has its line, found by its request id.
    await waitFor(() => lines("/api/missing").length === 8, { what: "a line for each 404" });
    for (const res of missing) expect(lines("/api/missing").some((l) => l.id === res.headers.get("x-request-id"))).toBe(true);
    const summary = await waitFor(() => app.logs.find((l) => l.msg === "requests not logged"), { what: "the summary line", timeoutMs: 5000 });
    expect(summary.per_second).toBe(5);
    const logged = lines("/healthz").length;
    expect(logged).toBeGreaterThanOrEqual(5);
    expect(logged).toBeLessThan(30);
    const summarized = app.logs.filter((l) => l.msg === "requests not logged").reduce((n, l) => n + (l.count as number), 0);
    await waitFor(
      () => lines("/healthz").length + app.logs.filter((l) => l.msg === "requests not logged").reduce((n, l) => n + (l.count as number), 0) === 30,
      {
        what: "every request logged or counted",
        timeoutMs: 5000,
      },
    );
    expect(summarized).toBeGreaterThan(0);
    // The metrics count every one.
    const metrics = await (await app.fetch("/metrics")).text();
    expect(metrics).toContain('cairn_http_requests_total{method="GET",route="/healthz",status="200"} 30');
  });
});
