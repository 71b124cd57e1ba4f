import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { sql } from "drizzle-orm";
import { generate } from "otplib";
import { startApp, type TestApp } from "../helpers/app.ts";
import { manualClock } from "../helpers/clock.ts";
import { PASSWORD, signUp, type SignedUp } from "../helpers/identity.ts";

const clock = manualClock(1_900_000_000_000);
const codeAt = (secret: string, stepsAhead = 0) => generate({ secret, epoch: Math.floor(clock.now() / 1000) + stepsAhead * 30 });

/** Enrols TOTP for a user and returns the secret and backup codes. */
async function enrol(user: SignedUp) {
  const started = await user.browser.json("POST", "/api/oauth/me/totp");
  const secret: string = started.data.secret;
  const confirmed = await user.browser.json("POST", "/api/oauth/me/totp/confirm", { code: await codeAt(secret) });
  return { started, secret, backupCodes: confirmed.data.backup_codes as string[], confirmed };
}

let app: TestApp;
beforeAll(async () => {
  app = await startApp({ overrides: { clock } });
  await signUp(app, "admin");
});
afterAll(() => app.stop());

describe("TOTP enrolment", () => {
  it("answers a secret and an otpauth URI, active only once confirmed with a code, then 10 backup codes", async () => {
    const u = await signUp(app, "tina");
    const { started, backupCodes, confirmed } = await enrol(u);
    expect(started.status).toBe(200);
    expect(started.data.secret).toMatch(/^[A-Z2-7]{16,}$/);
    expect(started.data.otpauth_uri).toBe(`otpauth://totp/Cairn:tina?secret=${started.data.secret}&issuer=Cairn`);
    expect(confirmed.status).toBe(200);
    expect(backupCodes).toHaveLength(10);
    expect(new Set(backupCodes).size).toBe(10);
    expect((await u.browser.json("GET", "/api/oauth/me/totp")).data).toEqual({ enabled: true, backup_codes_left: 10 });
    // The stored secret is sealed, the backup codes hashed.
    const raw =
      JSON.stringify(await app.ctx.db.all(sql`SELECT * FROM totp_credentials`)) + JSON.stringify(await app.ctx.db.all(sql`SELECT * FROM backup_codes`));
    expect(raw).not.toContain(started.data.secret);
    for (const code of backupCodes) expect(raw).not.toContain(code);
    expect((await u.browser.json("POST", "/api/oauth/me/totp")).status).toBe(409);
  });

  it("refuses a wrong confirmation code and stays off", async () => {
    const u = await signUp(app, "uma");
    await u.browser.json("POST", "/api/oauth/me/totp");
    const res = await u.browser.json("POST", "/api/oauth/me/totp/confirm", { code: "000000" });
    expect(res).toMatchObject({ status: 400, data: { error: "invalid_request" } });
    expect((await u.browser.json("GET", "/api/oauth/me/totp")).data.enabled).toBe(false);
    expect((await u.browser.json("POST", "/api/oauth/me/totp/confirm", { code: 123456 })).status).toBe(400);
  });

  it("is for sessions only: a personal access token cannot enrol", async () => {
    const u = await signUp(app, "ursula");
    const pat = await u.browser.json("POST", "/api/oauth/me/tokens", { name: "ci", scopes: ["profile"] });
    const res = await app.client().json("POST", "/api/oauth/me/totp", undefined, { authorization: `Bearer ${pat.data.secret}` });
    expect(res.status).toBe(403);
  });
});

describe("two-step login (ARCHITECTURE section 4)", () => {
  it("asks for the second factor with a one-use mfa_token, then records amr and acr", async () => {
    const u = await signUp(app, "victor");
    const { secret } = await enrol(u);
    const browser = app.client();
    const first = await browser.json("POST", "/api/auth/login", { login: "victor", password: PASSWORD });
    expect(first.status).toBe(200);
    expect(first.data).toMatchObject({ mfa_required: true, methods: ["totp", "backup_code"] });
    expect(first.headers.get("set-cookie")).toBeNull();
    expect((await browser.json("GET", "/api/auth/session")).status).toBe(401);

    expect((await browser.json("POST", "/api/auth/login/mfa", { mfa_token: first.data.mfa_token, code: "111111" })).status).toBe(400);
    clock.advance(30_000); // a fresh time step: the enrolment code may not be replayed
    const second = await browser.json("POST", "/api/auth/login/mfa", { mfa_token: first.data.mfa_token, code: await codeAt(secret) });
    expect(second.status).toBe(200);
    expect(second.data.user.username).toBe("victor");
    const session = await browser.json("GET", "/api/auth/session");
    expect(session.data.session).toMatchObject({ amr: ["pwd", "otp", "mfa"], acr: "mfa" });
    // Used once.
    expect((await app.client().json("POST", "/api/auth/login/mfa", { mfa_token: first.data.mfa_token, code: await codeAt(secret, 1) })).status).toBe(400);
  });

  it("never accepts the same code twice", async () => {
    const u = await signUp(app, "wendy");
    const { secret } = await enrol(u);
    clock.advance(30_000);
    const code = await codeAt(secret);
    const a = (await app.client().json("POST", "/api/auth/login", { login: "wendy", password: PASSWORD })).data.mfa_token;
    const b = (await app.client().json("POST", "/api/auth/login", { login: "wendy", password: PASSWORD })).data.mfa_token;
    expect((await app.client().json("POST", "/api/auth/login/mfa", { mfa_token: a, code })).status).toBe(200);
    expect((await app.client().json("POST", "/api/auth/login/mfa", { mfa_token: b, code })).status).toBe(400);
  });

  it("expires the mfa_token after 5 minutes", async () => {
    const u = await signUp(app, "xena");
    const { secret } = await enrol(u);
    const token = (await app.client().json("POST", "/api/auth/login", { login: "xena", password: PASSWORD })).data.mfa_token;
    clock.advance(5 * 60_000 + 1);
    expect((await app.client().json("POST", "/api/auth/login/mfa", { mfa_token: token, code: await codeAt(secret) })).status).toBe(400);
  });

  it("opens no session on an empty or blank code or backup code, at either step; the right code then still passes", async () => {
    const u = await signUp(app, "zara");
    const { secret } = await enrol(u);
    clock.advance(30_000);
    const login = (factor: Record<string, string>) => app.client().json("POST", "/api/auth/login", { login: "zara", password: PASSWORD, ...factor });
    // An empty factor is no factor: the second step is asked for.
    for (const factor of [{ code: "" }, { backup_code: "" }] as Record<string, string>[]) {
      const res = await login(factor);
      expect({ factor, status: res.status, mfa: res.data.mfa_required, session: res.data.session_token }).toEqual({
        factor,
        status: 200,
        mfa: true,
        session: undefined,
      });
    }
    expect((await login({ code: "   " })).status).toBe(400);
    const ticket = (await login({})).data.mfa_token as string;
    for (const factor of [{ code: "" }, { code: "   " }, { backup_code: "" }] as Record<string, string>[]) {
      const res = await app.client().json("POST", "/api/auth/login/mfa", { mfa_token: ticket, ...factor });
      expect({ factor, status: res.status, session: res.data.session_token }).toEqual({ factor, status: 400, session: undefined });
    }
    expect((await app.client().json("POST", "/api/auth/login/mfa", { mfa_token: ticket, code: await codeAt(secret) })).status).toBe(200);
  });

  it("accepts each backup code once, and refuses requests naming no or two factors", async () => {
    const u = await signUp(app, "yves");
    const { backupCodes } = await enrol(u);
    const token = () =>
      app
        .client()
        .json("POST", "/api/auth/login", { login: "yves", password: PASSWORD })
        .then((r) => r.data.mfa_token);
    const t1 = await token();
    expect((await app.client().json("POST", "/api/auth/login/mfa", { mfa_token: t1 })).status).toBe(400);
    expect((await app.client().json("POST", "/api/auth/login/mfa", { mfa_token: t1, code: "123456", backup_code: "x" })).status).toBe(400);
    const ok = await app.client().json("POST", "/api/auth/login/mfa", { mfa_token: t1, backup_code: (backupCodes[0] as string).toUpperCase() });
    expect(ok.status).toBe(200);
    expect((await app.client().json("POST", "/api/auth/login/mfa", { mfa_token: await token(), backup_code: backupCodes[0] })).status).toBe(400);
    expect((await u.browser.json("GET", "/api/oauth/me/totp")).data.backup_codes_left).toBe(9);
  });

  it("allows at most 8 code attempts per 5 minutes per user", async () => {
    const u = await signUp(app, "zack");
    const { secret } = await enrol(u);
    const token = (await app.client().json("POST", "/api/auth/login", { login: "zack", password: PASSWORD })).data.mfa_token;
    // enrolment used one attempt
    for (let i = 0; i < 7; i++) expect((await app.client().json("POST", "/api/auth/login/mfa", { mfa_token: token, code: "000000" })).status).toBe(400);
    clock.advance(30_000);
    const limited = await app.client().json("POST", "/api/auth/login/mfa", { mfa_token: token, code: await codeAt(secret) });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    clock.advance(5 * 60_000);
    const fresh = (await app.client().json("POST", "/api/auth/login", { login: "zack", password: PASSWORD })).data.mfa_token;
    expect((await app.client().json("POST", "/api/auth/login/mfa", { mfa_token: fresh, code: await codeAt(secret) })).status).toBe(200);
  });
});

describe("issue 42: backup codes read as written", () => {
  it("avoid look-alike characters (0/o, 1/l/i), and a code made before the change still works once", async () => {
    const u = await signUp(app, "vera");
    const { backupCodes } = await enrol(u);
    const fresh = (await u.browser.json("POST", "/api/oauth/me/totp/backup-codes", { password: PASSWORD })).data.backup_codes as string[];
    for (const code of [...backupCodes, ...fresh]) expect(code).toMatch(/^[2-9a-hjkmnp-z]{5}-[2-9a-hjkmnp-z]{5}$/);

    // A code of the old alphabet (lowercased base64url), stored as it was hashed then: typed in any case, with or without its hyphen.
    const old = "o0l1i-xk9ab";
    const oldHash = Bun.SHA256.hash("o0l1ixk9ab", "hex") as string;
    await app.ctx.db.run(sql`INSERT INTO backup_codes (id, user_id, code_hash, used_at, created_at) VALUES ('old-code', ${u.user.id}, ${oldHash}, NULL, 1)`);
    const token = (await app.client().json("POST", "/api/auth/login", { login: "vera", password: PASSWORD })).data.mfa_token;
    const used = await app.client().json("POST", "/api/auth/login/mfa", { mfa_token: token, backup_code: " O0L1IXK9AB " });
    expect(used.status).toBe(200);
    const again = (await app.client().json("POST", "/api/auth/login", { login: "vera", password: PASSWORD })).data.mfa_token;
    expect((await app.client().json("POST", "/api/auth/login/mfa", { mfa_token: again, backup_code: old })).status).toBe(400);
  });
});

describe("one use under concurrency", () => {
  it("one mfa_token used 50 times at once succeeds exactly once", async () => {
    const u = await signUp(app, "conc1");
    const { backupCodes } = await enrol(u);
    const token = (await app.client().json("POST", "/api/auth/login", { login: "conc1", password: PASSWORD })).data.mfa_token;
    // Each request brings a different valid backup code, so only the mfa_token is contended.
    await app.ctx.db.run(sql`DELETE FROM rate_limit_hits`);
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => app.client().json("POST", "/api/auth/login/mfa", { mfa_token: token, backup_code: backupCodes[i % 8] })),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
  });

  it("one backup code used 50 times at once succeeds exactly once", async () => {
    const u = await signUp(app, "conc2");
    const { backupCodes } = await enrol(u);
    const tokens = await Promise.all(
      Array.from({ length: 50 }, () =>
        app
          .client()
          .json("POST", "/api/auth/login", { login: "conc2", password: PASSWORD })
          .then((r) => r.data.mfa_token),
      ),
    );
    await app.ctx.db.run(sql`DELETE FROM rate_limit_hits`);
    const answers = await Promise.all(tokens.map((mfa_token) => app.client().json("POST", "/api/auth/login/mfa", { mfa_token, backup_code: backupCodes[0] })));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.every((a) => a.status === 200 || a.status === 400 || a.status === 429)).toBe(true);
  });
});

describe("turning TOTP off and new backup codes", () => {
  it("need a current code or the password; then sign-in is one step again", async () => {
    const u = await signUp(app, "olga");
    const { secret } = await enrol(u);
    expect((await u.browser.json("POST", "/api/oauth/me/totp/backup-codes", {})).status).toBe(400);
    expect((await u.browser.json("POST", "/api/oauth/me/totp/backup-codes", { password: "wrong password" })).status).toBe(400);
    const fresh = await u.browser.json("POST", "/api/oauth/me/totp/backup-codes", { password: PASSWORD });
    expect(fresh.data.backup_codes).toHaveLength(10);
    expect((await u.browser.json("DELETE", "/api/oauth/me/totp", { code: "000000" })).status).toBe(400);
    clock.advance(30_000);
    expect((await u.browser.json("DELETE", "/api/oauth/me/totp", { code: await codeAt(secret) })).status).toBe(200);
    expect((await u.browser.json("GET", "/api/oauth/me/totp")).data).toEqual({ enabled: false, backup_codes_left: 0 });
    expect((await app.client().json("POST", "/api/auth/login", { login: "olga", password: PASSWORD })).data.user.username).toBe("olga");
  });
});
