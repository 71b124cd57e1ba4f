import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { sql } from "drizzle-orm";
import { startApp, type TestApp } from "../helpers/app.ts";
import { manualClock } from "../helpers/clock.ts";
import { openSse } from "../helpers/realtime-clients.ts";
import type { SignedUp } from "../helpers/identity.ts";
import { startSmtp, type TestSmtp } from "../helpers/smtp.ts";
import { teamOwner } from "../helpers/workspace.ts";
import { mailEnv, queuedMail } from "../helpers/workspace-mail.ts";

// Issue 44 item 7: a share link with an email allow-list may require a one-time code mailed to
// the typed address; the verified code gives a short-lived grant that the link's guard accepts.
let smtp: TestSmtp;
let app: TestApp;
let alice: SignedUp;
let teamId: string;
let setId: string;
const clock = manualClock();
const LISTED = ["ann@example.com", "ben@example.com", "cat@example.com", "dan@example.com", "eve@example.com", "fay@example.com"];

const api = (method: string, path: string, body?: unknown) => alice.browser.json(method, `/api/teams/${teamId}${path}`, body);
/** A stranger: no cookies at all. */
const pub = (method: string, path: string, body?: unknown) => app.client().json(method, `/api/shared/${path}`, body);
const askCode = (token: string, email: string) => pub("POST", `${token}/email-code`, { email });
const verify = (token: string, email: string, code: string) => pub("POST", `${token}/email-code/verify`, { email, code });
const open = (token: string, email: string, grant?: string) =>
  pub("GET", `${token}?email=${encodeURIComponent(email)}${grant ? `&grant=${encodeURIComponent(grant)}` : ""}`);
async function newLink(body: Record<string, unknown>): Promise<{ id: string; token: string; requireEmailCode: boolean }> {
  const res = await api("POST", `/sets/${setId}/share-links`, body);
  expect(res.status).toBe(201);
  return res.data.link;
}
/** The code of the latest message to `email`, once it arrived. */
async function codeMailedTo(email: string, after = 0): Promise<string> {
  const mail = await smtp.waitFor((m) => m.to.includes(email) && smtp.messages.indexOf(m) >= after);
  return (/\b(\d{6})\b/.exec(mail.subject) as RegExpExecArray)[1] as string;
}

beforeAll(async () => {
  smtp = await startSmtp();
  app = await startApp({ env: mailEnv(smtp.url), overrides: { clock } });
  ({
    user: alice,
    team: { id: teamId },
  } = await teamOwner(app, "alice"));
  setId = (await api("POST", "/sets", { name: "Groceries" })).data.set.id;
  await api("POST", `/sets/${setId}/todos`, { title: "Milk" });
});
afterAll(async () => {
  await app?.stop();
  await smtp?.stop();
});

describe("issue 44: requireEmailCode on a link", () => {
  it("is a field of every link, off by default, and needs an allow-list", async () => {
    expect((await newLink({ name: "Open" })).requireEmailCode).toBe(false);
    const refused = await api("POST", `/sets/${setId}/share-links`, { requireEmailCode: true });
    expect(refused.status).toBe(400);
    expect(refused.data).toMatchObject({ code: "email_codes_need_allow_list" });
    const link = await newLink({ allowedEmails: "ann@example.com", requireEmailCode: true });
    expect(link.requireEmailCode).toBe(true);
    const cleared = await api("PATCH", `/share-links/${link.id}`, { allowedEmails: "" });
    expect(cleared.data).toMatchObject({ code: "email_codes_need_allow_list" });
    expect((await api("PATCH", `/share-links/${link.id}`, { allowedEmails: "", requireEmailCode: false })).status).toBe(200);
  });

  it("a listed address alone no longer opens the link; the refusal says a code is needed", async () => {
    const link = await newLink({ allowedEmails: LISTED.join(","), requireEmailCode: true });
    const denied = await open(link.token, "ann@example.com");
    expect(denied.status).toBe(403);
    expect(denied.data).toEqual({ error: "Access denied", code: "link_access_denied", requiresEmail: true, requiresEmailCode: true });
    expect((await pub("POST", `${link.token}/todos`, { title: "Jam", email: "ann@example.com" })).status).toBe(403);
  });
});

describe("issue 44: the code flow", () => {
  let token: string;
  let linkId: string;
  beforeAll(async () => {
    ({ token, id: linkId } = await newLink({ allowedEmails: LISTED.join(","), requireEmailCode: true, canCreate: true }));
  });

  it("mails a code to a listed address; the code opens the link once, through a grant the guard accepts", async () => {
    const asked = await askCode(token, " Ann@Example.com ");
    expect(asked.status).toBe(202);
    expect(asked.data).toEqual({ ok: true, expiresIn: 600 });
    const mail = await smtp.waitFor((m) => m.to.includes("ann@example.com"));
    const code = await codeMailedTo("ann@example.com");
    expect(mail.subject).toBe(`${code} is your code for “Groceries”`);
    expect(mail.text).toContain("It works once, within 10 minutes.");

    const wrong = await verify(token, "ann@example.com", code === "000000" ? "111111" : "000000");
    expect(wrong.status).toBe(400);
    expect(wrong.data).toEqual({ error: "Wrong or expired code; ask for a new one if it keeps failing", code: "invalid_email_code" });
    const ok = await verify(token, "ann@example.com", code);
    expect(ok.status).toBe(200);
    expect(Date.parse(ok.data.expiresAt) - clock.now()).toBe(12 * 3600_000);
    const grant: string = ok.data.grant;
    expect((await verify(token, "ann@example.com", code)).status).toBe(400); // used

    const opened = await open(token, "ann@example.com", grant);
    expect(opened.status).toBe(200);
    expect(opened.data).toMatchObject({ requiresEmail: true, requiresEmailCode: true, todos: [{ title: "Milk" }] });
    expect((await pub("POST", `${token}/todos`, { title: "Jam", email: "ann@example.com", grant })).status).toBe(201);
    // The grant is the address's, for this link only, and not for long.
    expect((await open(token, "ben@example.com", grant)).status).toBe(403);
    expect((await open(token, "ann@example.com", `${grant.slice(0, -2)}xx`)).status).toBe(403);
    clock.advance(12 * 3600_000);
    expect((await open(token, "ann@example.com", grant)).status).toBe(403);
    clock.set(Date.now());
    // Off the list, the grant opens nothing any more.
    expect((await api("PATCH", `/share-links/${linkId}`, { allowedEmails: "ben@example.com" })).status).toBe(200);
    expect((await open(token, "ann@example.com", grant)).status).toBe(403);
    expect((await api("PATCH", `/share-links/${linkId}`, { allowedEmails: LISTED.join(",") })).status).toBe(200);
  });

  it("answers an unlisted address exactly like a listed one, and mails it nothing", async () => {
    const listed = await askCode(token, "ben@example.com");
    const unlisted = await askCode(token, "mallory@example.com");
    expect(unlisted.status).toBe(listed.status);
    expect(unlisted.data).toEqual(listed.data);
    expect(await queuedMail(app, "share_code", "mallory@example.com")).toEqual([]);
    const guess = await verify(token, "mallory@example.com", "123456");
    expect(guess.status).toBe(400);
    expect(guess.data).toEqual({ error: "Wrong or expired code; ask for a new one if it keeps failing", code: "invalid_email_code" });
    expect((await askCode(token, "not an address")).status).toBe(400);
  });

  it("a code expires after 10 minutes", async () => {
    const from = smtp.messages.length;
    clock.set(Date.now());
    expect((await askCode(token, "cat@example.com")).status).toBe(202);
    const code = await codeMailedTo("cat@example.com", from);
    clock.advance(10 * 60_000);
    expect((await verify(token, "cat@example.com", code)).status).toBe(400);
    // The purge job clears expired codes.
    const codesOf = async (email: string) =>
      (await app.ctx.db.all<{ n: number }>(sql`SELECT count(*) AS n FROM share_email_codes WHERE email = ${email}`))[0]?.n;
    expect(await codesOf("cat@example.com")).toBe(1);
    expect((await app.ctx.purges.run(clock.now() + 1)).failures).toEqual([]);
    expect(await codesOf("cat@example.com")).toBe(0);
    clock.set(Date.now());
  });

  it("five wrong tries end a code, even for the right one after them; a new code ends the older one", async () => {
    let from = smtp.messages.length;
    expect((await askCode(token, "dan@example.com")).status).toBe(202);
    const first = await codeMailedTo("dan@example.com", from);
    from = smtp.messages.length;
    expect((await askCode(token, "dan@example.com")).status).toBe(202);
    const code = await codeMailedTo("dan@example.com", from);
    if (code !== first) expect((await verify(token, "dan@example.com", first)).status).toBe(400);
    const wrong = code === "999999" ? "999998" : "999999";
    for (let i = code !== first ? 1 : 0; i < 5; i++) expect((await verify(token, "dan@example.com", wrong)).status).toBe(400);
    expect((await verify(token, "dan@example.com", code)).status).toBe(400);
  });

  it("of 50 verifications of one code at once, exactly one succeeds", async () => {
    const from = smtp.messages.length;
    expect((await askCode(token, "eve@example.com")).status).toBe(202);
    const code = await codeMailedTo("eve@example.com", from);
    const answers = await Promise.all(Array.from({ length: 50 }, () => verify(token, "eve@example.com", code)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 400)).toHaveLength(49);
  });

  it("is limited per address (listed or not, alike) and per link", async () => {
    for (const email of ["fay@example.com", "nobody@example.com"]) {
      for (let i = 0; i < 5; i++) expect((await askCode(token, email)).status).toBe(202);
      const limited = await askCode(token, email);
      expect(limited.status).toBe(429);
      expect(limited.data).toMatchObject({ code: "too_many_email_codes" });
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    }
    // Per link: many addresses through one link run out too.
    const other = (await newLink({ allowedEmails: "ann@example.com", requireEmailCode: true })).token;
    const answers: number[] = [];
    for (let i = 0; i < 51; i++) answers.push((await askCode(other, `visitor${i}@example.com`)).status);
    expect(answers.slice(0, 50).every((s) => s === 202)).toBe(true);
    expect(answers[50]).toBe(429);
  });

  it("a link without the option has no codes", async () => {
    const plain = await newLink({ allowedEmails: "ann@example.com" });
    const res = await askCode(plain.token, "ann@example.com");
    expect(res.status).toBe(400);
    expect(res.data).toEqual({ error: "This link does not use email codes", code: "email_codes_not_used" });
    expect((await askCode("no-such-token-abcdefgh", "ann@example.com")).status).toBe(404);
  });

  it("a public stream opened with a grant needs it, and ends when the grant does (issue 43's realtime hub)", async () => {
    clock.set(Date.now());
    const link = await newLink({ allowedEmails: "gus@example.com", requireEmailCode: true });
    // A link anyone may add to: its writes are events of the same set, made without a session.
    const open = await newLink({ canCreate: true });
    const from = smtp.messages.length;
    expect((await askCode(link.token, "gus@example.com")).status).toBe(202);
    const code = await codeMailedTo("gus@example.com", from);
    const { grant } = (await verify(link.token, "gus@example.com", code)).data as { grant: string };
    const url = `${app.url}/api/shared/${link.token}/events?email=${encodeURIComponent("gus@example.com")}`;
    const refused = await fetch(url);
    expect(refused.status).toBe(403);
    await refused.body?.cancel();
    const stream = await openSse(`${url}&grant=${encodeURIComponent(grant)}`);
    try {
      await stream.ready();
      expect((await pub("POST", `${open.token}/todos`, { title: "Bread" })).status).toBe(201);
      await stream.until((f) => f.data.data?.title === "Bread");
      clock.advance(12 * 3600_000);
      expect((await pub("POST", `${open.token}/todos`, { title: "Butter" })).status).toBe(201);
      expect(await stream.ended()).toBe(true);
      expect(stream.frames.some((f) => f.data.data?.title === "Butter")).toBe(false);
    } finally {
      stream.close();
      clock.set(Date.now());
    }
  });
});

describe("issue 44: without SMTP", () => {
  it("the option cannot be turned on, and says why", async () => {
    const bare = await startApp();
    try {
      const { user, team } = await teamOwner(bare, "olga");
      const set = (await user.browser.json("POST", `/api/teams/${team.id}/sets`, { name: "Tools" })).data.set.id;
      const refused = await user.browser.json("POST", `/api/teams/${team.id}/sets/${set}/share-links`, {
        allowedEmails: "a@example.com",
        requireEmailCode: true,
      });
      expect(refused.status).toBe(400);
      expect(refused.data).toEqual({
        error: "Email codes need mail, and this Cairn has no mail server set up (CAIRN_SMTP_URL and CAIRN_SMTP_FROM)",
        code: "email_codes_need_mail",
      });
      const link = (await user.browser.json("POST", `/api/teams/${team.id}/sets/${set}/share-links`, { allowedEmails: "a@example.com" })).data.link;
      expect((await user.browser.json("PATCH", `/api/teams/${team.id}/share-links/${link.id}`, { requireEmailCode: true })).data.code).toBe(
        "email_codes_need_mail",
      );
      expect((await user.browser.json("GET", "/api/workspace/mail")).data.mail).toBe(false);
    } finally {
      await bare.stop();
    }
  });
});
