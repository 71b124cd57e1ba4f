import { afterAll, describe, expect, it } from "bun:test";
import { type RunningServer, startServer } from "../helpers/cli.ts";
import { storeEnv } from "../helpers/pg-store.ts";
import { startSmtp, type TestSmtp } from "../helpers/smtp.ts";
import { freePort, tempDir } from "../helpers/temp.ts";
import { waitFor } from "../helpers/wait.ts";

// Issue 44 item 1: "a restart loses nothing". A `cairn serve` process enqueues mail while its mail
// server is down, is killed with SIGKILL, and starts again with the server up: the message
// arrives, exactly once.
let server: RunningServer | null = null;
let smtp: TestSmtp | null = null;
afterAll(async () => {
  await server?.stop("SIGKILL");
  await smtp?.stop();
});

type Entry = { to: string; state: string; attempts: number; last_error: string | null };

describe("issue 44: the outbox survives a crash", () => {
  it("delivers, once, mail enqueued before a SIGKILL while the mail server was down", async () => {
    const smtpPort = freePort();
    // The same address after the restart: the session is bound to the issuer.
    const port = freePort();
    const url = `http://127.0.0.1:${port}`;
    const dataDir = tempDir();
    const env = {
      ...(await storeEnv(dataDir, {})),
      CAIRN_DATA: dataDir,
      PORT: String(port),
      CAIRN_ISSUER: url,
      CAIRN_SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      CAIRN_SMTP_FROM: "Cairn <cairn@example.org>",
    };
    server = await startServer(env);
    const call = async (method: string, path: string, token: string | null, body?: unknown) => {
      const res = await fetch(`${url}${path}`, {
        method,
        headers: { "content-type": "application/json", origin: url, ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, data: (await res.json()) as any };
    };
    const registered = await call("POST", "/api/auth/register", null, { username: "admin", email: "admin@example.com", password: "crash test password" });
    expect(registered.status).toBe(201);
    const token: string = registered.data.session_token;
    const entry = async () => ((await call("GET", "/api/oauth/admin/mail", token)).data.recent as Entry[]).find((e) => e.to === "crash@example.org");

    expect((await call("POST", "/api/oauth/admin/mail/test", token, { to: "crash@example.org" })).status).toBe(202);
    // The sender tried at once, found no server, and scheduled a retry a minute away.
    const failed = await waitFor(
      async () => {
        const e = await entry();
        return e?.attempts === 1 && e.state === "pending" ? e : null;
      },
      { what: "the first try to fail", timeoutMs: 20_000 },
    );
    expect(failed.last_error).toContain(`127.0.0.1:${smtpPort}`);

    server.proc.kill("SIGKILL");
    await server.exited;
    smtp = await startSmtp({ port: smtpPort });
    server = await startServer(env);

    // A restart tries at once what waits for a retry.
    const mail = await smtp.waitFor((m) => m.to.includes("crash@example.org"), 20_000);
    expect(mail.subject).toBe("Test email from Cairn");
    const sent = await waitFor(
      async () => {
        const e = await entry();
        return e?.state === "sent" ? e : null;
      },
      { what: "the entry marked sent", timeoutMs: 10_000 },
    );
    expect(sent.attempts).toBe(2);
    expect(smtp.messages.filter((m) => m.to.includes("crash@example.org"))).toHaveLength(1);
  }, 60_000);
});
