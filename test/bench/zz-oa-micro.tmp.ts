// Temporary micro-benchmark (helper for issue 46 oauth), removed after use.
import { sql } from "drizzle-orm";
import { mkdtempSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
const insertedRowId = (r: unknown) => Number((r as { lastInsertRowid: number }).lastInsertRowid);
import { openDatabase } from "../../src/db/client.ts";
import { applyMigrations } from "../../src/db/migrate.ts";
import { refreshTokens, oauthGrants } from "../../src/oauth/tokens/tokens.table.ts";
import { withTx } from "../../src/db/tx.ts";

const db = openDatabase(join(mkdtempSync(join(tmpdir(), "oa-micro-")), "cairn.db"));
applyMigrations(db.$client);
db.$client.run("PRAGMA foreign_keys = OFF");
const p = sql.placeholder;
const values = { tokenHash: p("tokenHash"), grantId: p("grantId"), clientId: p("clientId"), createdAt: p("createdAt"), expiresAt: p("expiresAt"), supersededAt: null };
const plain = db.insert(refreshTokens).values(values).prepare();
const returning = db.insert(refreshTokens).values(values).returning({ id: refreshTokens.id }).prepare();
let n = 0;
const row = () => ({ tokenHash: `h${n++}`, grantId: "g", clientId: "c", createdAt: 1, expiresAt: 2 });
async function time(label: string, one: () => Promise<number>) {
  const N = 5000;
  const runs: number[] = [];
  for (let r = 0; r < 7; r++) {
    const t0 = process.cpuUsage();
    await withTx(db, async () => {
      for (let i = 0; i < N; i++) await one();
    });
    const u = process.cpuUsage(t0);
    runs.push((u.user + u.system) / N);
  }
  runs.sort((a, b) => a - b);
  console.log(label, runs.map((x) => x.toFixed(2)).join(" "), "median", runs[3]?.toFixed(2), "µs CPU/insert");
}
for (let k = 0; k < 2; k++) {
  await time("run + lastInsertRowid", async () => insertedRowId(await plain.run(row())));
  await time("returning id (get)   ", async () => ((await returning.get(row())) as { id: number }).id);
}
void oauthGrants;
