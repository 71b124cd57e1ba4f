import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { sql } from "drizzle-orm";
import { connect } from "node:net";
import { createBodyDeadline } from "../../src/shared/body-deadline.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { manualClock } from "../helpers/clock.ts";
import { jarFetch } from "../helpers/cookie-jar.ts";
import { PASSWORD, signInWithTotp, signUp, type SignedUp, totpCode } from "../helpers/identity.ts";
import { waitFor } from "../helpers/wait.ts";
import { teamOwner } from "../helpers/workspace.ts";

// Issue 18 findings 7, 10, 12, 13, 14 and 16: the smaller holes a hostile probe found.
const clock = manualClock(1_900_000_000_000);
let app: TestApp;
let admin: SignedUp;
beforeAll(async () => {
  app = await startApp({ overrides: { clock } });
  admin = await signUp(app, "admin");
});
afterAll(() => app.stop());

const hits = async (like: string) => (await app.ctx.db.all<{ n: number }>(sql`SELECT count(*) AS n FROM rate_limit_hits WHERE bucket LIKE ${like}`))[0]?.n;

describe("finding 7: password re-checks are counted before the hash", () => {
  it("200 parallel guesses at the current password: at most 10 are checked, the rest wait", async () => {
    const victim = await signUp(app, "victim");
    const guesses = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        victim.browser.json("POST", "/api/oauth/me/password", { current_password: `guess number ${i}`, new_password: "another long passphrase" }),
      ),
    );
    expect(guesses.filter((g) => g.status === 400).length).toBeLessThanOrEqual(10);
    expect(guesses.filter((g) => g.status === 429).length).toBeGreaterThanOrEqual(190);
    // The same count guards backup codes and turning TOTP off.
    expect((await victim.browser.json("POST", "/api/oauth/me/totp/backup-codes", { password: PASSWORD })).status).toBe(429);
    clock.advance(15 * 60_000 + 1);
  });

  it("a right password takes its count back", async () => {
    const right = await signUp(app, "rightpass");
    const passwords = [PASSWORD, "second long passphrase"];
    for (let i = 0; i < 12; i++) {
      const change = { current_password: passwords[i % 2], new_password: passwords[(i + 1) % 2] };
      expect((await right.browser.json("POST", "/api/oauth/me/password", change)).status).toBe(200);
    }
    expect(await hits(`reauth:${right.user.id}`)).toBe(0);
  });
});

describe("finding 10: dynamic registration", () => {
  const metadata = { client_name: "Probe", redirect_uris: ["https://rp.example/cb"] };

  it("refuses a cookie-authenticated registration from another site", async () => {
    const res = await admin.browser.json("POST", "/api/oauth/register", metadata, { origin: "https://evil.example" });
    expect(res.status).toBe(403);
    expect((await admin.browser.json("POST", "/api/oauth/register", metadata)).status).toBe(201);
  });

  it("refuses a body that is not JSON (what a cross-site form can send)", async () => {
    for (const type of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"]) {
      const res = await admin.browser.fetch("/api/oauth/register", { method: "POST", headers: { "content-type": type }, body: JSON.stringify(metadata) });
      expect(res.status).toBe(415);
      expect((await res.json()).error).toBe("invalid_request");
    }
    expect((await admin.bearer("POST", "/api/oauth/register", metadata)).status).toBe(201);
  });
});

describe("finding 12: a paused sign-in still admits the owner with a second factor", () => {
  it("the password with a TOTP or backup code passes; wrong ones answer exactly like the pause", async () => {
    const owner = await signUp(app, "owner12");
    const { secret, backupCodes } = await signInWithTotp(app, owner, clock.now);
    clock.advance(60_000);
    for (let i = 0; i < 10; i++) await jarFetch(app.url).json("POST", "/api/auth/login", { login: "owner12", password: `attacker guess ${i}` });
    const paused = await jarFetch(app.url).json("POST", "/api/auth/login", { login: "owner12", password: PASSWORD });
    expect(paused.status).toBe(429);
    expect(paused.data.second_factor_accepted).toBe(true);
    expect(Number(paused.headers.get("retry-after"))).toBeGreaterThan(0);

    const code = await totpCode(secret, clock.now());
    const wrongPassword = await jarFetch(app.url).json("POST", "/api/auth/login", { login: "owner12", password: "not the password", code });
    const wrongCode = await jarFetch(app.url).json("POST", "/api/auth/login", { login: "owner12", password: PASSWORD, code: "000000" });
    for (const answer of [wrongPassword, wrongCode]) {
      expect(answer.status).toBe(429);
      expect(answer.data).toEqual(paused.data);
    }
    const withCode = await jarFetch(app.url).json("POST", "/api/auth/login", { login: "owner12", password: PASSWORD, code });
    expect(withCode.status).toBe(200);
    const session = await jarFetch(app.url).json("GET", "/api/auth/session", undefined, { authorization: `Bearer ${withCode.data.session_token}` });
    expect(session.data.session).toMatchObject({ acr: "mfa", amr: ["pwd", "otp", "mfa"] });

    // Still paused for a password alone; a backup code passes too.
    expect((await jarFetch(app.url).json("POST", "/api/auth/login", { login: "owner12", password: PASSWORD })).status).toBe(429);
    for (let i = 0; i < 10; i++) await jarFetch(app.url).json("POST", "/api/auth/login", { login: "owner12", password: `attacker guess ${i}` });
    expect((await jarFetch(app.url).json("POST", "/api/auth/login", { login: "owner12", password: PASSWORD, backup_code: backupCodes[0] })).status).toBe(200);
    clock.advance(15 * 60_000 + 1);
  });

  it("an account without a second factor stays paused: the password alone never passes", async () => {
    await signUp(app, "nofactor");
    for (let i = 0; i < 10; i++) await jarFetch(app.url).json("POST", "/api/auth/login", { login: "nofactor", password: `attacker guess ${i}` });
    const res = await jarFetch(app.url).json("POST", "/api/auth/login", { login: "nofactor", password: PASSWORD, code: "123456" });
    expect(res.status).toBe(429);
    clock.advance(15 * 60_000 + 1);
  });

  it("warns once when requests come through a proxy that is not trusted", async () => {
    const warnings = () => app.logs.filter((l) => l.level === "warn" && String(l.msg).includes("CAIRN_TRUST_PROXY"));
    await app.client().fetch("/api/init/status", { headers: { "x-forwarded-for": "203.0.113.7" } });
    await app.client().fetch("/api/init/status", { headers: { forwarded: "for=203.0.113.8" } });
    expect(warnings()).toHaveLength(1);
  });
});

describe("finding 13: WebFinger", () => {
  it("is paced per address", async () => {
    const finger = () => app.client().fetch(`/.well-known/webfinger?resource=${encodeURIComponent(`acct:admin@${new URL(app.url).host}`)}`);
    for (let i = 0; i < 30; i++) expect((await finger()).status).toBe(200);
    const res = await finger();
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).not.toBeNull();
    clock.advance(60_000);
    expect((await finger()).status).toBe(200);
  });
});

describe("finding 14: secrets kept out of logs and rate-limit rows", () => {
  it("share-link tokens never reach the request log", async () => {
    const { user, team } = await teamOwner(app, "sharer");
    const set = (await user.browser.json("POST", `/api/teams/${team.id}/sets`, { name: "Shared" })).data.set.id as string;
    const token = (await user.browser.json("POST", `/api/teams/${team.id}/sets/${set}/share-links`, { name: "Public" })).data.link.token as string;
    for (const path of [`/api/shared/${token}`, `/api/shared/${token}/badge.svg`, `/s/${token}`]) expect((await app.client().fetch(path)).status).toBe(200);
    const logged = JSON.stringify(app.logs);
    expect(logged).not.toContain(token);
    expect(logged).toContain("/api/shared/:token/badge.svg");
  });

  it("the typed sign-in name is kept as a hash in the failure counts", async () => {
    await jarFetch(app.url).json("POST", "/api/auth/login", { login: "MyPassword-Typed-As-Name", password: "x" });
    const buckets = JSON.stringify(await app.ctx.db.all(sql`SELECT bucket FROM rate_limit_hits`));
    expect(buckets).not.toContain("mypassword-typed-as-name");
    expect(await hits("login:account:%")).toBeGreaterThan(0);
    clock.advance(15 * 60_000 + 1);
  });
});

describe("finding 16: answers that carry secrets are never cached", () => {
  it("sessions, tokens, share links and exports answer Cache-Control: no-store", async () => {
    const { user, team } = await teamOwner(app, "cacher");
    const set = (await user.browser.json("POST", `/api/teams/${team.id}/sets`, { name: "Cached" })).data.set.id as string;
    await user.browser.json("POST", `/api/teams/${team.id}/sets/${set}/share-links`, { name: "Public" });
    for (const path of [
      "/api/oauth/me/sessions",
      "/api/oauth/me/tokens",
      `/api/teams/${team.id}/share-links`,
      `/api/teams/${team.id}/sets/${set}/share-links`,
      `/api/teams/${team.id}/sets/${set}/export?format=json`,
    ]) {
      const res = await user.browser.fetch(path);
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toBe("no-store");
    }
    // Public images keep their own caching.
    expect((await app.client().fetch("/.well-known/openid-configuration")).headers.get("cache-control")).toStartWith("public");
  });
});

describe("finding 16: the setup token guards the app config before setup", () => {
  it("PUT /api/init/config needs X-Setup-Token when CAIRN_SETUP_TOKEN is set", async () => {
    const guarded = await startApp({ env: { CAIRN_SETUP_TOKEN: "operator-secret-token" } });
    try {
      const body = { idp_base_url: "https://evil.example" };
      expect((await guarded.json("PUT", "/api/init/config", body)).status).toBe(401);
      expect((await guarded.json("PUT", "/api/init/config", body, { "x-setup-token": "wrong" })).status).toBe(401);
      expect((await guarded.json("GET", "/api/init/config")).data.config.idp_base_url).not.toBe("https://evil.example");
      expect((await guarded.json("PUT", "/api/init/config", body, { "x-setup-token": "operator-secret-token" })).status).toBe(200);
    } finally {
      await guarded.stop();
    }
  });
});

describe("finding 16: cookies on https", () => {
  it("carry the __Host- prefix, Secure and Path=/ without a Domain, and are read back under that name", async () => {
    const secure = await startApp({ env: { CAIRN_ISSUER: "https://cairn.example" } });
    try {
      const browser = jarFetch(secure.url);
      const res = await browser.fetch("/api/auth/register", {
        method: "POST",
        headers: { "content-type": "application/json", origin: "https://cairn.example" },
        body: JSON.stringify({ username: "https", email: "https@example.com", password: PASSWORD }),
      });
      expect(res.status).toBe(201);
      const cookie = res.headers.get("set-cookie") as string;
      expect(cookie).toStartWith("__Host-cairn_session=");
      expect(cookie).toContain("; Secure");
      expect(cookie).toContain("Path=/");
      expect(cookie.toLowerCase()).not.toContain("domain=");
      expect((await browser.json("GET", "/api/auth/session")).status).toBe(200);
      // The unprefixed name is not read on https: a sibling subdomain could have planted it.
      const planted = await secure.client().fetch("/api/auth/session", { headers: { cookie: `cairn_session=${browser.cookies.get("__Host-cairn_session")}` } });
      expect(planted.status).toBe(401);
    } finally {
      await secure.stop();
    }
  });
});

describe("finding 16: bodies without a declared length", () => {
  // fetch sends a stream body chunked (Transfer-Encoding), with no Content-Length to check up front.
  const chunked = (parts: string[]) =>
    fetch(`${app.url}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: app.url },
      body: new ReadableStream({
        start(controller) {
          for (const part of parts) controller.enqueue(new TextEncoder().encode(part));
          controller.close();
        },
      }),
      duplex: "half",
    } as RequestInit);

  it("are read and parsed like any other", async () => {
    const res = await chunked(['{"login":"nobody-here",', '"password":"wrong password 1"}']);
    expect(res.status).toBe(401);
    expect((await res.json()).error).toBe("invalid_credentials");
  });

  it("are cut off past the route's limit with a 413", async () => {
    const mebibyte = "x".repeat(256 * 1024);
    const res = await chunked(['{"login":"', mebibyte, mebibyte, mebibyte, mebibyte, '","password":"p"}']);
    expect(res.status).toBe(413);
  });
});

describe("finding 16: slow request bodies", () => {
  it("reads bodies within 20 seconds unless told otherwise", () => {
    expect(app.ctx.bodyDeadline.ms).toBe(20_000);
  });

  it("a body still trickling in at the deadline gets 408 and its connection is closed", async () => {
    // The same deadline, injected short: the trickle resets the idle timeout, so only the deadline can end it.
    const slow = await startApp({ overrides: { bodyDeadline: createBodyDeadline(300) } });
    const socket = connect(Number(new URL(slow.url).port), "127.0.0.1");
    let answer = "";
    socket.on("data", (chunk) => (answer += chunk.toString()));
    let closed = false;
    socket.on("close", () => (closed = true));
    socket.write("POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{");
    const trickle = setInterval(() => socket.destroyed || socket.write(" "), 50);
    try {
      await waitFor(() => closed, { what: "the server to close the trickling connection", timeoutMs: 20_000, intervalMs: 20 });
    } finally {
      clearInterval(trickle);
      socket.destroy();
      await slow.stop();
    }
    expect(answer).toStartWith("HTTP/1.1 408");
    expect(slow.logs.some((l) => l.status === 408 && l.detail === "the body did not arrive within 300 ms")).toBe(true);
  });
});
