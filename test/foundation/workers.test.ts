import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import type { TestApp } from "../helpers/app.ts";
import { cli, type RunningServer, startServer } from "../helpers/cli.ts";
import { signUp } from "../helpers/identity.ts";
import { freePort, tempDir } from "../helpers/temp.ts";
import { requestsByWorker, startTwoWorkers, WORKERS_PATIENCE_MS, workerListening } from "../helpers/workers.ts";
import { registerApp } from "../helpers/oauth.ts";
import { teamOwner } from "../helpers/workspace.ts";
import { basicAuth } from "../oauth/oauth.fixtures.ts";

/*
 * CAIRN_WORKERS (issue 12): several processes serve one port and one database. Whatever one worker
 * changes, the others must see at once; what is counted or numbered must be one across them.
 */

const TEST_TIMEOUT_MS = 2 * WORKERS_PATIENCE_MS;

/** `n` requests, each on a connection of its own, so the kernel spreads them over the workers. */
const spread = (n: number, url: string, init: RequestInit = {}) =>
  Promise.all(Array.from({ length: n }, () => fetch(url, { ...init, headers: { ...(init.headers as Record<string, string>), connection: "close" } })));

describe("cairn serve with CAIRN_WORKERS=2: two processes, one port, one database", () => {
  let url: string;
  let server: RunningServer;
  let instance: TestApp;
  beforeAll(async () => {
    ({ server, instance, url } = await startTwoWorkers());
  }, WORKERS_PATIENCE_MS + 30_000);
  afterAll(async () => {
    await instance?.stop();
    await server.stop();
  });

  /** How many requests each worker logged for paths starting with `path`, once `total` lines came. */
  const servedBy = (path: string, total: number) => requestsByWorker(server, (logged) => logged.startsWith(path), total, path);

  it(
    "both workers take connections on the one port",
    async () => {
      const answers = await spread(40, `${url}/healthz`);
      expect(answers.every((r) => r.status === 200)).toBe(true);
      const counts = await servedBy("/healthz", 40);
      expect(counts.reduce((a, b) => a + b)).toBe(40);
      expect(counts.every((n) => n > 0)).toBe(true);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "a window limit holds across workers: 30 WebFinger lookups a minute per address, wherever they land",
    async () => {
      const answers = await spread(40, `${url}/.well-known/webfinger?resource=${encodeURIComponent("acct:nobody@127.0.0.1")}`);
      expect(answers.filter((r) => r.status === 429)).toHaveLength(10);
      expect(answers.filter((r) => r.status === 404)).toHaveLength(30);
      const counts = await servedBy("/.well-known/webfinger?resource=", 40);
      expect(counts.reduce((a, b) => a + b)).toBe(40);
      expect(counts.every((n) => n > 0)).toBe(true);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "a client's new secret is the only one every worker takes, from the next request",
    async () => {
      const owner = await signUp(instance, "owner");
      const client = await registerApp(owner, {});
      const secret = client.client_secret as string;
      const introspect = (secret: string) =>
        spread(20, `${url}/api/oauth/introspect`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", authorization: basicAuth(client.client_id, secret) },
          body: "token=unknown",
        });
      expect((await introspect(secret)).map((r) => r.status)).toEqual(Array(20).fill(200));
      const rotated = await owner.bearer("POST", `/api/oauth/me/clients/${client.client_id}/secret`);
      expect((await introspect(secret)).map((r) => r.status)).toEqual(Array(20).fill(401));
      expect((await introspect(rotated.data.client_secret)).map((r) => r.status)).toEqual(Array(20).fill(200));
      const counts = await servedBy("/api/oauth/introspect", 60);
      expect(counts.reduce((a, b) => a + b)).toBe(60);
      expect(counts.every((n) => n >= 5)).toBe(true);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "realtime: a write through any worker reaches the subscribers of every worker, under one id",
    async () => {
      const { user, team } = await teamOwner(instance, "alice");
      const cookie = `cairn_ws=${user.browser.cookies.get("cairn_ws")}`;
      const set = await user.browser.json("POST", `/api/teams/${team.id}/sets`, { name: "Groceries" });
      expect(set.status).toBe(201);
      // Sixteen streams, each on its own connection: both workers hold some (all on one: 1 in 32,768).
      const streams = await Promise.all(
        Array.from({ length: 16 }, async () => {
          const abort = new AbortController();
          const res = await fetch(`${url}/api/realtime/sse?teamId=${team.id}`, { headers: { cookie }, signal: abort.signal });
          expect(res.status).toBe(200);
          return { abort, reader: res.body?.getReader() as ReadableStreamDefaultReader<Uint8Array>, text: "" };
        }),
      );
      // Four writes, each on its own connection, so they too go through both workers.
      const titles = ["milk", "eggs", "bread", "tea"];
      const writes = await Promise.all(
        titles.map((title) =>
          fetch(`${url}/api/teams/${team.id}/sets/${set.data.set.id}/todos`, {
            method: "POST",
            headers: { cookie, origin: url, "content-type": "application/json", connection: "close" },
            body: JSON.stringify({ title }),
          }),
        ),
      );
      expect(writes.map((r) => r.status)).toEqual([201, 201, 201, 201]);
      const decoder = new TextDecoder();
      const created = (text: string) =>
        [...text.matchAll(/id: (\d+)\nevent: todo:created\ndata: (.*)\n/g)].map((m) => `${m[1]} ${JSON.parse(m[2] as string).data.title}`);
      const deadline = Date.now() + WORKERS_PATIENCE_MS;
      for (const stream of streams) {
        while (created(stream.text).length < titles.length && Date.now() < deadline) {
          const chunk = await Promise.race([stream.reader.read(), Bun.sleep(deadline - Date.now()).then(() => null)]);
          if (!chunk || chunk.done) break;
          stream.text += decoder.decode(chunk.value, { stream: true });
        }
      }
      const seen = streams.map((s) => created(s.text).sort());
      expect(seen[0]).toHaveLength(4);
      for (const s of seen) expect(s).toEqual(seen[0] as string[]);
      for (const s of streams) s.abort.abort();
      const counts = await servedBy("/api/realtime/sse?teamId=", streams.length);
      expect(counts.reduce((a, b) => a + b)).toBe(streams.length);
      expect(counts.every((n) => n > 0)).toBe(true);
    },
    TEST_TIMEOUT_MS,
  );
});

describe("cairn serve with CAIRN_WORKERS=2: keys and stopping", () => {
  it(
    "follows a key rotation by the CLI at once in every worker, and stops every worker cleanly on SIGTERM",
    async () => {
      const dataDir = tempDir();
      const port = freePort();
      const url = `http://127.0.0.1:${port}`;
      // Every answer gets its log line (no sampling): the test looks for each worker's.
      const server = await startServer({ CAIRN_DATA: dataDir, PORT: String(port), CAIRN_ISSUER: url, CAIRN_WORKERS: "2", CAIRN_LOG_REQUESTS_PER_SECOND: "0" });
      try {
        await workerListening(server);
        const kids = async () =>
          Promise.all(
            (await spread(20, `${url}/.well-known/jwks.json`)).map(async (r) =>
              ((await r.json()) as { keys: { kid: string }[] }).keys.map((k) => k.kid).sort(),
            ),
          );
        const before = (await kids())[0] as string[];
        const out = cli(["keys", "rotate"], { CAIRN_DATA: dataDir });
        expect(out.code).toBe(0);
        const fresh = (/new signing keys: (\S+), (\S+);/.exec(out.stdout) ?? []).slice(1);
        expect(fresh).toHaveLength(2);
        for (const set of await kids()) expect(set).toEqual([...before, ...fresh].sort());
        // Both answered: of the 40 lines of the two spreads, each worker has some.
        const counts = await requestsByWorker(server, (path) => path === "/.well-known/jwks.json", 40, "the JWKS");
        expect(counts.every((n) => n > 0)).toBe(true);
      } finally {
        expect(await server.stop()).toBe(0);
      }
      const stopped = server.log.filter((l) => l.includes('"msg":"stopped"')).map((l) => JSON.parse(l).worker);
      expect(stopped.sort()).toEqual([0, 1]);
    },
    TEST_TIMEOUT_MS,
  );
});
