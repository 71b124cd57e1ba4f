import { expect, it } from "bun:test";
import { startApp } from "../helpers/app.ts";
import { teamOwner } from "../helpers/workspace.ts";

for (const tries of [5]) it(`debug concurrent creates ${tries}`, async () => {
  const app = await startApp();
  const pg = (app.ctx.db as any).$pg;
  const orig = pg.transaction;
  let runs = 0;
  let chain: Promise<unknown> = Promise.resolve();
  pg.transaction = (body: any, o: any) => { const r = chain.then(() => orig((tx: any) => { runs++; return body(tx); }, { maxTries: tries, ...o })); chain = r.catch(() => {}); return r; };
  const { user: alice, team: { id: teamId } } = await teamOwner(app, "alice");
  const setId = (await alice.browser.json("POST", `/api/teams/${teamId}/sets`, { name: "Busy" })).data.set.id;
  runs = 0;
  const t0 = performance.now();
  const made = await Promise.all(Array.from({ length: 25 }, (_, i) => alice.browser.json("POST", `/api/teams/${teamId}/sets/${setId}/todos`, { title: `c${i}` })));
  console.log(tries, made.filter((r) => r.status === 201).length, "ok; runs", runs, "ms", Math.round(performance.now() - t0));
  await app.stop();
  expect(1).toBe(1);
});
