import { afterEach, expect, test } from "bun:test";
import { Cron } from "croner";
import { Elysia } from "elysia";
import { preparedOnFirstUse } from "../../src/db/prepared.ts";
import { SCHEDULE } from "../../src/jobs/jobs.ts";
import type { Asset } from "../../src/spa/spa.assets.ts";
import { spaRoutes } from "../../src/spa/spa.routes.ts";
import { startApp } from "../helpers/app.ts";
import { startServer } from "../helpers/cli.ts";
import { tempDir } from "../helpers/temp.ts";
import { waitFor } from "../helpers/wait.ts";

// Issue 12, idle memory and cold start: what only some requests need waits for them.

const zone = process.env.TZ;
afterEach(() => {
  if (zone === undefined) delete process.env.TZ;
  else process.env.TZ = zone;
});

test("the SPA's files are decoded with the first request for one of them, once", async () => {
  const body = new TextEncoder().encode("<html><head></head><body></body></html>");
  let loads = 0;
  const assets = () => {
    loads++;
    return new Map<string, Asset>([["/index.html", { body, type: "text/html; charset=utf-8", etag: '"x"', immutable: false }]]);
  };
  const app = new Elysia().use(spaRoutes("https://sso.example.com", assets));
  expect(loads).toBe(0);
  const first = await app.handle(new Request("https://sso.example.com/settings"));
  expect(first.status).toBe(200);
  expect(await first.text()).toContain('<meta name="cairn-issuer" content="https://sso.example.com" />');
  expect((await app.handle(new Request("https://sso.example.com/missing.js"))).status).toBe(404);
  expect((await app.handle(new Request("https://sso.example.com/"))).status).toBe(200);
  expect(loads).toBe(1);
});

test("the jobs' schedules are in UTC whatever the host's time zone", () => {
  process.env.TZ = "Asia/Kathmandu"; // UTC+05:45: no whole-hour coincidence
  const rotation = new Cron("17 3 * * *", { ...SCHEDULE, paused: true }, () => {});
  const next = rotation.nextRun() as Date;
  rotation.stop();
  expect([next.getUTCHours(), next.getUTCMinutes()]).toEqual([3, 17]);
  expect(next.getHours()).toBe(9); // 03:17 UTC is 09:02 in Kathmandu
});

test("statements are prepared with their first use, each once, and are plain properties from then on", () => {
  let made = 0;
  const statements = preparedOnFirstUse({ find: () => ({ n: ++made }), insert: () => ({ n: ++made }) });
  expect(made).toBe(0);
  expect(statements.find.n).toBe(1);
  expect(statements.find.n).toBe(1);
  expect(made).toBe(1);
  expect(Object.getOwnPropertyDescriptor(statements, "find")).toEqual({ value: { n: 1 }, writable: false, enumerable: true, configurable: false });
  expect(Object.keys(statements)).toEqual(["find", "insert"]);
  expect(statements.insert.n).toBe(2);
});

test("a started app has not prepared the token endpoint's statements before a token request", async () => {
  const app = await startApp();
  try {
    const prepared = (name: string) => "value" in (Object.getOwnPropertyDescriptor(app.ctx.oauth.tokens, name) ?? {});
    expect(prepared("supersede")).toBe(false);
    expect(prepared("insertAccess")).toBe(false);
    expect(app.ctx.oauth.tokens.supersede).toBe(app.ctx.oauth.tokens.supersede);
    expect(prepared("supersede")).toBe(true);
  } finally {
    await app.stop();
  }
});

test("a started server collects what its start left as garbage once, after it listens, and keeps answering", async () => {
  const server = await startServer({ CAIRN_DATA: tempDir(), CAIRN_LOG: "debug" });
  try {
    const collected = (line: string) => line.includes('"msg":"start-up garbage collected"');
    const line = await waitFor(() => server.log.find(collected), { what: "the start-up collection's log line" });
    expect(server.log.findIndex(collected)).toBeGreaterThan(server.log.findIndex((l) => l.includes('"msg":"listening"')));
    expect(JSON.parse(line).ms).toBeGreaterThan(0);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect(server.log.filter(collected)).toHaveLength(1);
  } finally {
    server.proc.kill("SIGTERM");
    await server.exited;
  }
});
