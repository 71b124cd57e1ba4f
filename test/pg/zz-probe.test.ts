import { it } from "bun:test";
import { readFileSync } from "node:fs";
import { startApp } from "../helpers/app.ts";
import { signUp } from "../helpers/identity.ts";
import { TEST_PG_SECRET } from "../helpers/pg-store.ts";
import { type PgCluster, startPostgres } from "../helpers/postgres.ts";
it("probe", async () => {
  const cluster = (await startPostgres()) as PgCluster;
  const app = await startApp({ env: { CAIRN_DATABASE_URL: await cluster.createDatabase(), CAIRN_SECRET: TEST_PG_SECRET } });
  const owner = await signUp(app, "owner");
  const routes = readFileSync("docs/routes.md", "utf8").split("\n").flatMap((l) => {
    const m = /^\| (\w+) \| `([^`]+)` \|/.exec(l);
    return m ? [[m[1], m[2]] as [string, string]] : [];
  });
  await cluster.stop("immediate");
  const out: string[] = [];
  for (const [method, path] of routes) {
    if (method === "WS") continue;
    const p = path.replace(/:[A-Za-z]+/g, "x1").replace("*", "x");
    for (const m of method === "ALL" ? ["GET"] : [method]) {
      const res = await owner.browser.fetch(p, { method: m, headers: m === "GET" || m === "HEAD" ? {} : { "content-type": "application/json" }, body: m === "GET" || m === "HEAD" ? undefined : "{}" ,  signal: AbortSignal.timeout(15000)}).catch((e) => ({ status: `ERR ${e}`, headers: new Headers() }) as any);
      if (res.status >= 500 || typeof res.status === "string") out.push(`${res.status} ${m} ${p} ${res.headers.get("retry-after")}`);
    }
  }
  console.log(out.join("\n"));
  console.log(app.logs.filter((l) => l.level === "error" || l.msg === "unhandled error").map((l) => JSON.stringify(l).slice(0, 600)).join("\n"));
  await cluster.start();
  await app.stop();
  await cluster.close();
}, 600_000);
