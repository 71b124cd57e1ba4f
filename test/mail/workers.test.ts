import { afterAll, describe, expect, it } from "bun:test";
import { type RunningServer, startServer } from "../helpers/cli.ts";
import { storeEnv } from "../helpers/pg-store.ts";
import { startSmtp, type TestSmtp } from "../helpers/smtp.ts";
import { freePort, tempDir } from "../helpers/temp.ts";
import { requestsByWorker, WORKERS_PATIENCE_MS, workerListening } from "../helpers/workers.ts";

// Issue 44 item 1 with CAIRN_WORKERS=2: mail enqueued through either worker is sent by the
// primary's one sender, woken through the primary (its poll is a minute away), each message once.
let server: RunningServer | null = null;
let smtp: TestSmtp | null = null;
afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
});

describe("issue 44: mail with several workers", () => {
  it(
    "sends what each worker enqueued, once, without waiting for the poll",
    async () => {
      smtp = await startSmtp();
      const port = freePort();
      const url = `http://127.0.0.1:${port}`;
      const dataDir = tempDir();
      server = await startServer({
        ...(await storeEnv(dataDir, {})),
        CAIRN_DATA: dataDir,
        PORT: String(port),
        CAIRN_ISSUER: url,
        CAIRN_WORKERS: "2",
        CAIRN_SMTP_URL: smtp.url,
        CAIRN_SMTP_FROM: "cairn@example.org",
      });
      await workerListening(server);
      // A new connection for each request, so the kernel spreads them over both workers.
      const call = async (path: string, body: unknown, token?: string) =>
        fetch(`${url}${path}`, {
          method: "POST",
          headers: { "content-type": "application/json", origin: url, connection: "close", ...(token ? { authorization: `Bearer ${token}` } : {}) },
          body: JSON.stringify(body),
        });
      const registered = await call("/api/auth/register", { username: "admin", email: "admin@example.com", password: "workers test password" });
      const token = ((await registered.json()) as { session_token: string }).session_token;
      const recipients: string[] = [];
      for (let i = 0; recipients.length < 40; i++) {
        const to = `w${i}@example.org`;
        expect((await call("/api/oauth/admin/mail/test", { to }, token)).status).toBe(202);
        recipients.push(to);
      }
      const [primary, worker] = await requestsByWorker(server, (path) => path === "/api/oauth/admin/mail/test", recipients.length, "the test emails");
      expect(worker).toBeGreaterThan(0);
      expect(primary).toBeGreaterThan(0);
      for (const to of recipients) await smtp.waitFor((m) => m.to.includes(to), 30_000);
      // Each once (the sign-up's own mail, if any, aside).
      const tests = smtp.messages.flatMap((m) => m.to).filter((to) => /^w\d+@/.test(to));
      expect(tests.sort()).toEqual([...recipients].sort());
    },
    WORKERS_PATIENCE_MS * 2,
  );
});
