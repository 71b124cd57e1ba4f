import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { loadConfig } from "../../src/config/config.ts";
import type { MailRow } from "../../src/mail/outbox.table.ts";
import { createMailTransport } from "../../src/mail/transport.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { makePrivateCa, type PrivateCa } from "../helpers/certificates.ts";
import { signUp } from "../helpers/identity.ts";
import { startSmtp, type TestSmtp } from "../helpers/smtp.ts";
import { waitFor } from "../helpers/wait.ts";

// Issue 44 item 1: TLS to the mail server. STARTTLS and implicit TLS with a certificate from a
// private CA work once CAIRN_SMTP_CA names that CA, fail with a reason that says so without it,
// and the login's password shows up nowhere.
const PASSWORD = "s3cret p@ss:word/%";
const FROM = "Cairn <cairn@example.org>";
let ca: PrivateCa;
let starttls: TestSmtp;
const apps: TestApp[] = [];

beforeAll(async () => {
  ca = makePrivateCa();
  starttls = await startSmtp({ tls: { key: ca.key, cert: ca.cert }, auth: { user: "cairn", pass: PASSWORD } });
});
afterAll(async () => {
  for (const app of apps) await app.stop();
  await starttls.stop();
});

async function appWith(env: Record<string, string>) {
  const app = await startApp({ env: { CAIRN_SMTP_FROM: FROM, ...env } });
  apps.push(app);
  return { app, admin: await signUp(app, "admin") };
}
const statusOf = async (admin: Awaited<ReturnType<typeof appWith>>["admin"]) => (await admin.browser.json("GET", "/api/oauth/admin/mail")).data;

describe("issue 44: TLS to the mail server", () => {
  it("sends over STARTTLS to a server whose certificate a private CA signed, once CAIRN_SMTP_CA trusts it, logged in", async () => {
    const { app, admin } = await appWith({ CAIRN_SMTP_URL: starttls.url, CAIRN_SMTP_CA: ca.caFile });
    expect((await admin.browser.json("POST", "/api/oauth/admin/mail/test", { to: "tls@example.org" })).status).toBe(202);
    const mail = await starttls.waitFor((m) => m.to.includes("tls@example.org"));
    expect(mail.secure).toBe(true);
    expect(mail.html).toContain("Cairn can send email");
    const status = await statusOf(admin);
    expect(status).toMatchObject({ configured: true, user: "cairn", ca_file: ca.caFile, security: "starttls_if_offered" });
    // The password is in no answer, no log line and no serialised config.
    const encoded = encodeURIComponent(PASSWORD);
    for (const text of [JSON.stringify(status), JSON.stringify(app.logs), JSON.stringify(app.ctx.config), JSON.stringify({ ...app.ctx.config.smtp })])
      for (const secret of [PASSWORD, encoded]) expect(text).not.toContain(secret);
    expect(app.ctx.config.smtp?.password).toBe(PASSWORD);
  });

  it("without CAIRN_SMTP_CA the send fails, and the admin page says the certificate is not trusted and what to set", async () => {
    const { admin } = await appWith({ CAIRN_SMTP_URL: starttls.url });
    await admin.browser.json("POST", "/api/oauth/admin/mail/test", { to: "untrusted@example.org" });
    const entry = await waitFor(
      async () =>
        ((await statusOf(admin)).recent as { to: string; attempts: number; state: string; last_error: string }[]).find(
          (e) => e.to === "untrusted@example.org" && e.attempts === 1 && e.state === "pending",
        ),
      { what: "the failed try", timeoutMs: 10_000 },
    );
    expect(entry.last_error).toMatch(
      /^the certificate of 127\.0\.0\.1:\d+ is not trusted \(.+\); if it comes from a private CA, set CAIRN_SMTP_CA to that CA's PEM file$/,
    );
    expect(starttls.messages.some((m) => m.to.includes("untrusted@example.org"))).toBe(false);
  });

  it("sends over implicit TLS (smtps://) with the private CA", async () => {
    const smtps = await startSmtp({ tls: { key: ca.key, cert: ca.cert }, implicitTls: true });
    try {
      expect(smtps.url).toStartWith("smtps://");
      const { admin } = await appWith({ CAIRN_SMTP_URL: smtps.url, CAIRN_SMTP_CA: ca.caFile });
      expect((await statusOf(admin)).security).toBe("tls");
      await admin.browser.json("POST", "/api/oauth/admin/mail/test", { to: "smtps@example.org" });
      expect((await smtps.waitFor((m) => m.to.includes("smtps@example.org"))).secure).toBe(true);
    } finally {
      await smtps.stop();
    }
  });

  it("sends nothing to a server that offers no STARTTLS when TLS is required (a server on another machine)", async () => {
    const plain = await startSmtp();
    try {
      const config = loadConfig({ CAIRN_SMTP_URL: plain.url, CAIRN_SMTP_FROM: FROM });
      // What config/smtp.ts makes of any host but loopback; the test server can only be on loopback.
      const transport = createMailTransport({ ...(config.smtp as NonNullable<typeof config.smtp>), requireTls: true }, "https://id.example.org");
      const row = { id: "r", toAddress: "plain@example.org", toName: null, subject: "s", textBody: "t", htmlBody: "<p>t</p>", headers: null } as MailRow;
      const outcome = await transport.send(row);
      transport.close();
      expect(outcome).toMatchObject({ ok: false, permanent: false });
      expect((outcome as { reason: string }).reason).toContain("STARTTLS");
      expect(plain.messages).toHaveLength(0);
    } finally {
      await plain.stop();
    }
  });
});
