import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import type { TestApp } from "../helpers/app.ts";
import type { RunningServer } from "../helpers/cli.ts";
import { type SignedUp, signUp } from "../helpers/identity.ts";
import { openSse, openWs } from "../helpers/realtime-clients.ts";
import { requestsByWorker, startTwoWorkers, WORKERS_PATIENCE_MS } from "../helpers/workers.ts";
import { workspaceSignIn } from "../helpers/workspace.ts";

/*
 * Issue 43 item 3 with CAIRN_WORKERS=2: each worker keeps its own subscribers' rights in memory,
 * so a change made through one worker must reach the others (the cluster bus) before the next
 * event. Sixteen streams per case, each on its own connection, so both workers hold some (the
 * kernel spreads connections by a hash of their ports: all on one is 1 in 32,768 a case; with
 * eight it was 1 in 128, and a CI run met it), and the change itself lands on either.
 */

const TEST_TIMEOUT_MS = 2 * WORKERS_PATIENCE_MS;
const STREAMS = 16;

describe("CAIRN_WORKERS=2: a right ended through one worker ends the streams every worker holds", () => {
  let url: string;
  let server: RunningServer;
  let instance: TestApp;
  let alice: SignedUp;
  const teams = new Map<string, string>();
  beforeAll(async () => {
    ({ server, instance, url } = await startTwoWorkers());
    alice = await signUp(instance, "alice");
    // Her teams made before her workspace sign-in, so its `teams` claim lists them all.
    for (const name of ["Removal", "Sign-out", "Link"]) {
      const team = (await alice.browser.json("POST", "/api/oauth/me/teams", { name })).data.team as { id: string };
      teams.set(name, team.id);
    }
    await workspaceSignIn(instance, alice);
  }, WORKERS_PATIENCE_MS + 30_000);
  afterAll(async () => {
    await instance?.stop();
    await server?.stop();
  });

  // Each call on a connection of its own, so the kernel spreads them over the workers.
  const fresh = { connection: "close" };
  const cookieOf = (user: SignedUp) => ({ cookie: `cairn_ws=${user.browser.cookies.get("cairn_ws")}`, ...fresh });

  /** Alice's team `name` with a new set, and `member` added to it at the IdP (already signed in to the workspace). */
  async function teamWith(name: string, member?: SignedUp) {
    const teamId = teams.get(name) as string;
    if (member)
      expect((await alice.browser.json("POST", `/api/oauth/me/teams/${teamId}/members`, { username: member.user.username, role: "member" })).status).toBe(201);
    const set = await alice.browser.json("POST", `/api/teams/${teamId}/sets`, { name: "Groceries" });
    expect(set.status).toBe(201);
    return { teamId, setId: set.data.set.id as string };
  }
  const counted = new Map<string, number[]>();
  const redacted = (path: string) => path.replace(/\/api\/shared\/[^/]+/, "/api/shared/:token").replace(/=[^&]*/g, "=");
  let titles = 0;
  const write = async (teamId: string, setId: string) => {
    const title = `event ${++titles}`;
    const res = await alice.browser.json("POST", `/api/teams/${teamId}/sets/${setId}/todos`, { title }, fresh);
    expect(res.status).toBe(201);
    return title;
  };
  const seen = (frames: { data: any }[], title: string) => frames.some((f) => f.data?.data?.title === title);

  /**
   * Opens the streams, sees an event reach each, makes the change and at once the next event, and
   * checks: that event reaches Alice's control socket and none of the streams, which all end, and
   * both workers held some of them.
   */
  async function endsEverywhere({
    teamId,
    setId,
    path,
    headers,
    change,
  }: {
    teamId: string;
    setId: string;
    path: string;
    headers: Record<string, string>;
    change: () => Promise<void>;
  }) {
    const streams = await Promise.all(Array.from({ length: STREAMS }, () => openSse(url + path, headers)));
    try {
      await Promise.all(streams.map((s) => s.ready()));
      const before = await write(teamId, setId);
      for (const s of streams) await s.until((f) => f.data?.data?.title === before, WORKERS_PATIENCE_MS);
      const control = openWs(`${url.replace("http", "ws")}/api/realtime/ws?teamId=${teamId}`, cookieOf(alice));
      try {
        await control.opened;
        await change();
        // At once, not after the streams were seen to end: the other worker must know before this event.
        const after = await write(teamId, setId);
        await control.until((m) => m.data?.title === after, WORKERS_PATIENCE_MS);
        for (const s of streams) expect(await s.ended(WORKERS_PATIENCE_MS)).toBe(true);
        for (const s of streams) expect(seen(s.frames, after)).toBe(false);
      } finally {
        control.close();
      }
      // The log names the path without query values or tokens: this case's lines are those past the earlier cases'.
      const logged = redacted(path);
      const earlier = counted.get(logged) ?? [0, 0];
      const counts = await requestsByWorker(server, (p) => p === logged, earlier[0]! + earlier[1]! + STREAMS, logged);
      counted.set(logged, counts);
      expect(counts.map((n, worker) => n - earlier[worker]!).every((n) => n > 0)).toBe(true);
    } finally {
      for (const s of streams) s.close();
    }
  }

  it(
    "a member removed at the IdP",
    async () => {
      const bob = await signUp(instance, "bob");
      await workspaceSignIn(instance, bob);
      const { teamId, setId } = await teamWith("Removal", bob);
      await endsEverywhere({
        teamId,
        setId,
        path: `/api/realtime/sse?teamId=${teamId}`,
        headers: cookieOf(bob),
        change: async () =>
          expect((await alice.browser.json("DELETE", `/api/oauth/me/teams/${teamId}/members/${bob.user.id}`, undefined, fresh)).status).toBe(200),
      });
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "a workspace sign-out",
    async () => {
      const carl = await signUp(instance, "carl");
      await workspaceSignIn(instance, carl);
      const { teamId, setId } = await teamWith("Sign-out", carl);
      await endsEverywhere({
        teamId,
        setId,
        path: `/api/realtime/sse?teamId=${teamId}`,
        headers: cookieOf(carl),
        change: async () => expect((await carl.browser.json("POST", "/api/workspace/logout", undefined, fresh)).status).toBe(200),
      });
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "a deleted share link",
    async () => {
      const { teamId, setId } = await teamWith("Link");
      const link = (await alice.browser.json("POST", `/api/teams/${teamId}/sets/${setId}/share-links`, {})).data.link as { id: string; token: string };
      await endsEverywhere({
        teamId,
        setId,
        path: `/api/shared/${link.token}/events`,
        headers: fresh,
        change: async () => expect((await alice.browser.json("DELETE", `/api/teams/${teamId}/share-links/${link.id}`, undefined, fresh)).status).toBe(200),
      });
    },
    TEST_TIMEOUT_MS,
  );
});
