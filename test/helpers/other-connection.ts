import { Database } from "bun:sqlite";
import { join } from "node:path";
import type { TestApp } from "./app.ts";

/**
 * Runs `statement` (`?` placeholders) on a connection of its own to the app's database, as
 * another process would (the CLI, the sqlite3 shell or psql, another instance): the SQLite file, or
 * the PostgreSQL database the app runs on.
 */
export async function runOnOtherConnection(app: TestApp, statement: string, params: (string | number | null)[] = []): Promise<void> {
  const url = app.ctx.config.databaseUrl;
  if (url === null) {
    const other = new Database(join(app.dataDir, "cairn.db"));
    try {
      // The app may be committing at that moment: wait for it, as a second process would.
      other.run("PRAGMA busy_timeout = 5000");
      other.run(statement, params);
    } finally {
      other.close();
    }
    return;
  }
  const other = new Bun.SQL(url, { max: 1 });
  let n = 0;
  try {
    await other.unsafe(
      statement.replace(/\?/g, () => `$${++n}`),
      params,
    );
  } finally {
    await other.close();
  }
}
