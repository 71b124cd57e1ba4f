// Fixture: inserts numbered rows through the app's own database code, printing each number once
// its transaction has committed (an acknowledged write), until killed.
import { openDatabase } from "../../src/db/client.ts";
import { applyMigrations } from "../../src/db/migrate.ts";
import { writeSetting } from "../../src/db/settings.repo.ts";
import { systemClock } from "../../src/shared/clock.ts";

const db = openDatabase(process.argv[2] as string);
applyMigrations(db.$client);
for (let i = 0; ; i++) {
  await writeSetting(db, systemClock, `row-${i}`, { i, pad: "x".repeat(200) });
  process.stdout.write(`${i}\n`);
  if (i % 50 === 0) await Bun.sleep(0);
}
