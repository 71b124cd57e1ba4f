import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { enqueueMail } from "../../src/mail/outbox.service.ts";
import { withTx } from "../../src/db/tx.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { manualClock } from "../helpers/clock.ts";
import { signUp, type SignedUp } from "../helpers/identity.ts";
import { startSmtp, type TestSmtp } from "../helpers/smtp.ts";
import { waitFor } from "../helpers/wait.ts";

// Issue 44 item 1: mail goes out through the outbox to a real SMTP server on loopback, with text
// and HTML; a refusal or a dropped connection is retried with backoff, a permanent refusal is
// given up with its reason, and the admin page shows each entry's state.
const clock = manualClock();
const FROM = "Cairn <cairn@example.org>";
let smtp: TestSmtp;
let app: TestApp;
let admin: SignedUp;

beforeAll(async () => {
  smtp = await startSmtp();
  app = await startApp({ env: { CAIRN_SMTP_URL: smtp.url, CAIRN_SMTP_FROM: FROM }, overrides: { clock } });
  admin = await signUp(app, "admin");
});
afterAll(async () => {
  await app.stop();
  await smtp.stop();
});

const sendTest = (to: string, by: SignedUp = admin) => by.browser.json("POST", "/api/oauth/admin/mail/test", { to });
type Entry = { to: string; state: string; attempts: number; last_error: string | null; next_attempt_at: number | null; sent_at: number | null };
const entryFor = async (to: string): Promise<Entry | undefined> =>
  ((await admin.browser.json("GET", "/api/oauth/admin/mail")).data.recent as Entry[]).find((e) => e.to === to);
const waitForEntry = (to: string, what: string, done: (e: Entry) => boolean) =>
  waitFor(
    async () => {
      const entry = await entryFor(to);
      return entry && done(entry) ? entry : null;
    },
    { what, timeoutMs: 10_000 },
  );
/** Moves the clock past the retry and wakes the sender, as its timer would once the time came. */
const retryNow = (entry: Entry) => {
  clock.set(Math.max(clock.now(), (entry.next_attempt_at as number) + 1));
  app.ctx.mail.wake();
};

describe("issue 44: sending", () => {
  it("delivers the admin's test email with a text and an HTML body, and lists it as sent", async () => {
    const res = await sendTest("ops@example.org");
    expect(res.status).toBe(202);
    expect(res.data).toEqual({ ok: true });
    const mail = await smtp.waitFor((m) => m.to.includes("ops@example.org"));
    expect(mail.to).toEqual(["ops@example.org"]);
    expect(mail.envelopeFrom).toBe("cairn@example.org");
    expect(mail.from).toBe('"Cairn" <cairn@example.org>');
    expect(mail.subject).toBe("Test email from Cairn");
    expect(mail.text).toContain("This is a test message that admin sent");
    expect(mail.html).toContain("<h1");
    expect(mail.html).toContain("This is a test message that admin sent");
    expect(mail.html).toContain(`href="${app.url}/admin"`);
    const entry = await waitForEntry("ops@example.org", "the entry marked sent", (e) => e.state === "sent");
    expect(entry).toMatchObject({ state: "sent", attempts: 1, last_error: null, next_attempt_at: null });
  });

  it("shows how mail is set up", async () => {
    const status = (await admin.browser.json("GET", "/api/oauth/admin/mail")).data;
    expect(status).toMatchObject({
      configured: true,
      from: FROM,
      host: "127.0.0.1",
      port: smtp.port,
      secure: false,
      security: "starttls_if_offered",
      user: null,
      ca_file: null,
      missing: [],
    });
  });

  it("retries a server that refuses with 451, records why, and delivers later", async () => {
    smtp.refuse({ at: "rcpt", code: 451, times: 1 });
    expect((await sendTest("busy@example.org")).status).toBe(202);
    const waiting = await waitForEntry("busy@example.org", "the first try to fail", (e) => e.attempts === 1 && e.state === "pending");
    expect(waiting.last_error).toContain("451");
    // One minute, drawn within ±25 %.
    expect(waiting.next_attempt_at as number).toBeGreaterThanOrEqual(clock.now() + 45_000);
    expect(waiting.next_attempt_at as number).toBeLessThanOrEqual(clock.now() + 75_000);
    expect(smtp.messages.some((m) => m.to.includes("busy@example.org"))).toBe(false);
    retryNow(waiting);
    await smtp.waitFor((m) => m.to.includes("busy@example.org"));
    expect(await waitForEntry("busy@example.org", "the entry marked sent", (e) => e.state === "sent")).toMatchObject({ attempts: 2, last_error: null });
    expect(smtp.messages.filter((m) => m.to.includes("busy@example.org"))).toHaveLength(1);
  });

  it("retries a server that refuses the message with 421 after the data", async () => {
    smtp.refuse({ at: "data", code: 421, times: 1 });
    await sendTest("late@example.org");
    const waiting = await waitForEntry("late@example.org", "the first try to fail", (e) => e.attempts === 1 && e.state === "pending");
    expect(waiting.last_error).toContain("421");
    retryNow(waiting);
    await smtp.waitFor((m) => m.to.includes("late@example.org"));
  });

  for (const at of ["connect", "data"] as const)
    it(`retries a server that drops the connection at ${at}`, async () => {
      const to = `dropped-${at}@example.org`;
      smtp.refuse({ at, drop: true, times: 1 });
      await sendTest(to);
      const waiting = await waitForEntry(to, "the first try to fail", (e) => e.attempts === 1 && e.state === "pending");
      expect(waiting.last_error).toContain("127.0.0.1");
      retryNow(waiting);
      await smtp.waitFor((m) => m.to.includes(to));
      expect(await waitForEntry(to, "the entry marked sent", (e) => e.state === "sent")).toMatchObject({ attempts: 2 });
    });

  it("gives up at once on a permanent refusal (550), with the server's reason", async () => {
    smtp.refuse({ at: "rcpt", code: 550, times: 1 });
    await sendTest("nobody@example.org");
    const failed = await waitForEntry("nobody@example.org", "the entry given up", (e) => e.state === "failed");
    expect(failed.attempts).toBe(1);
    expect(failed.last_error).toContain("550");
    expect(failed.last_error).toContain("gave up");
  });

  it("sends mail enqueued in a transaction once it commits, its name and subject encoded", async () => {
    smtp.refuse(null);
    const { text, html } = { text: "plain words", html: "<p>plain words</p>" };
    await withTx(app.ctx.db, () =>
      enqueueMail(app.ctx, { kind: "security_notice", to: "notice@example.org", toName: 'Zoë "Z" <Admin>', subject: "Ünïcode subject", text, html }),
    );
    const mail = await smtp.waitFor((m) => m.to.includes("notice@example.org"));
    // The name and subject travel encoded (RFC 2047), and come back as written.
    expect(mail.subject).toBe("Ünïcode subject");
    expect((mail.headers.get("to") as { value: { name: string; address: string }[] }).value).toEqual([
      { name: 'Zoë "Z" <Admin>', address: "notice@example.org" },
    ]);
    expect(mail.raw).not.toContain("Ünïcode");
  });

  it("carries List-Unsubscribe headers", async () => {
    const url = `${app.url}/unsubscribe?token=abc`;
    await withTx(app.ctx.db, () =>
      enqueueMail(app.ctx, {
        kind: "todo_assigned",
        to: "sub@example.org",
        subject: "Assigned",
        text: "t",
        html: "<p>t</p>",
        headers: { "List-Unsubscribe": `<${url}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
      }),
    );
    const mail = await smtp.waitFor((m) => m.to.includes("sub@example.org"));
    expect(mail.raw).toContain(`List-Unsubscribe: <${url}>`);
    expect(mail.raw).toContain("List-Unsubscribe-Post: List-Unsubscribe=One-Click");
  });
});

describe("issue 44: who may send the test email", () => {
  it("refuses a member who is not an admin, and an admin's personal access token", async () => {
    const bob = await signUp(app, "bob");
    expect((await sendTest("x@example.org", bob)).status).toBe(403);
    expect((await bob.browser.json("GET", "/api/oauth/admin/mail")).status).toBe(403);
    const pat = (await admin.browser.json("POST", "/api/oauth/me/tokens", { name: "script", scopes: ["profile"] })).data.secret as string;
    const byToken = await app.client().json("POST", "/api/oauth/admin/mail/test", { to: "x@example.org" }, { authorization: `Bearer ${pat}` });
    expect(byToken.status).toBeGreaterThanOrEqual(401);
    expect(byToken.status).toBeLessThanOrEqual(403);
    expect(await entryFor("x@example.org")).toBeUndefined();
  });
});
