import { createApp, MAX_REQUEST_BYTES } from "../../src/app.ts";
import { bootContext } from "../../src/boot.ts";
import { loadConfig } from "../../src/config/config.ts";
import type { AppContext } from "../../src/context/context.ts";
import { closeDatabase } from "../../src/db/client.ts";
import { createLogger } from "../../src/shared/log.ts";
import { startMailSender } from "../../src/mail/sender.ts";
import { jarFetch } from "./cookie-jar.ts";
import { storeEnv } from "./pg-store.ts";
import { freePort, tempDir } from "./temp.ts";

export type TestApp = Awaited<ReturnType<typeof startApp>>;

/**
 * The real app on a free loopback port with a fresh data folder (real SQLite file, WAL, the real
 * migrations). `env` adds environment variables; `overrides` replaces context pieces (clock, access).
 */
export async function startApp({
  env = {},
  overrides = {},
  host = "127.0.0.1",
  issuerHost,
  dataDir = tempDir(),
}: {
  env?: Record<string, string>;
  overrides?: Partial<Omit<AppContext, "config" | "db">>;
  /** `localhost` for WebAuthn in a browser: an IP address cannot be a relying party ID. */
  host?: "127.0.0.1" | "localhost";
  /**
   * The issuer's host when it is a name only the test's browser resolves (`auth.home.test`, with
   * Chromium's --host-resolver-rules): `url` stays on 127.0.0.1, and writes carry the issuer's Origin.
   */
  issuerHost?: string;
  /** Reuse another app's data folder (stop that app first): a restart. */
  dataDir?: string;
} = {}) {
  const port = freePort();
  const config = loadConfig({
    CAIRN_DATA: dataDir,
    PORT: String(port),
    CAIRN_ISSUER: `http://${issuerHost ?? host}:${port}`,
    ...(await storeEnv(dataDir, env)),
    ...env,
  });
  const logs: Record<string, unknown>[] = [];
  const log = createLogger("info", (line) => logs.push(JSON.parse(line)));
  const ctx = await bootContext(config, { log, ...overrides });
  const app = createApp(ctx).listen({ port, hostname: "127.0.0.1", maxRequestBodySize: MAX_REQUEST_BYTES });
  // As `cairn serve` does: with CAIRN_SMTP_* in `env`, enqueued mail goes out (nothing otherwise).
  const stopMail = await startMailSender(ctx);
  const url = `http://${host}:${port}`;
  const origin = issuerHost ? `http://${issuerHost}:${port}` : url;
  return {
    ctx,
    url,
    dataDir,
    logs,
    ...jarFetch(url, origin),
    /** A second browser: its own cookie jar. */
    client: () => jarFetch(url, origin),
    async stop() {
      await stopMail();
      await app.stop(true);
      closeDatabase(ctx.db);
    },
  };
}

/**
 * The instance a `cairn serve` process runs on `dataDir`, as a TestApp: requests go to `url`, and
 * `ctx` is a context of this test process on the same database (for what tests set directly).
 */
export async function attachToServer(url: string, dataDir: string): Promise<TestApp> {
  const config = loadConfig({ CAIRN_DATA: dataDir, PORT: new URL(url).port, CAIRN_ISSUER: url, ...(await storeEnv(dataDir, {})) });
  const ctx = await bootContext(config, { log: createLogger("silent") });
  return {
    ctx,
    url,
    dataDir,
    logs: [],
    ...jarFetch(url),
    client: () => jarFetch(url),
    async stop() {
      closeDatabase(ctx.db);
    },
  };
}
