import { afterAll, afterEach, beforeAll, describe, expect, it } from "bun:test";
import { sql } from "drizzle-orm";
import { tooManyAttempts } from "../../src/access/access.errors.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { manualClock } from "../helpers/clock.ts";
import { PASSWORD, signInWithTotp, signUp } from "../helpers/identity.ts";

// Issue 42 item 6: the sign-in pause names only the ways in the account has (it promised a second
// factor to people who have none), and counts its minutes in words ("minute(s)" before).
const clock = manualClock();
let app: TestApp;

beforeAll(async () => {
  app = await startApp({ overrides: { clock } });
  await signUp(app, "admin");
});
afterAll(() => app.stop());
// Every pause of a test ends before the next one begins.
afterEach(() => clock.advance(15 * 60_000 + 1));

const signIn = (login: string, password = PASSWORD) => app.client().json("POST", "/api/auth/login", { login, password });

/** Ten wrong passwords for `login` at this instant: its password sign-in pauses for 15 minutes. */
async function failTenTimes(login: string) {
  for (let i = 0; i < 10; i++) expect((await signIn(login, `wrong guess ${i}`)).status).toBe(401);
}

async function addPasskey(userId: string) {
  await app.ctx.db.run(
    sql`INSERT INTO passkeys (id, user_id, name, public_key, counter, transports, device_type, backed_up, created_at) VALUES (${`passkey-${userId}`}, ${userId}, 'Laptop', 'x', 0, '[]', 'singleDevice', 0, 1)`,
  );
}

describe("issue 42: the sign-in pause names what the account has", () => {
  it("offers nothing to an account without a second factor, and says the wait in minutes, singular and plural", async () => {
    await signUp(app, "nora");
    await failTenTimes("nora");
    const paused = await signIn("nora");
    expect(paused.status).toBe(429);
    expect(paused.data).toEqual({
      error: "too_many_attempts",
      error_description: "Too many failed sign-ins: password sign-in is paused for 15 minutes. Try again after that.",
      second_factor_accepted: false,
    });
    clock.advance(14 * 60_000 + 30_000);
    expect((await signIn("nora")).data.error_description).toBe("Too many failed sign-ins: password sign-in is paused for 1 minute. Try again after that.");
  });

  it("an unknown username is answered as an account without factors: nothing tells them apart", async () => {
    await failTenTimes("nobody-here");
    const paused = await signIn("nobody-here");
    expect(paused.data.error_description).toBe("Too many failed sign-ins: password sign-in is paused for 15 minutes. Try again after that.");
  });

  it("offers the authenticator app and backup codes to an account that has them, and no passkey", async () => {
    const tom = await signUp(app, "tom");
    await signInWithTotp(app, tom, clock.now);
    await failTenTimes("tom");
    const paused = await signIn("tom");
    expect(paused.data.error_description).toBe(
      "Too many failed sign-ins: password sign-in is paused for 15 minutes. Your password with a code from your authenticator app (or a backup code) still signs you in.",
    );
    expect(paused.data.second_factor_accepted).toBe(true);
  });

  it("offers a passkey to an account with a passkey alone, and no code", async () => {
    const pia = await signUp(app, "pia");
    await addPasskey(pia.user.id);
    await failTenTimes("pia");
    const paused = await signIn("pia");
    expect(paused.data.error_description).toBe("Too many failed sign-ins: password sign-in is paused for 15 minutes. Your passkey still signs you in.");
    expect(paused.data.second_factor_accepted).toBe(false);
  });

  it("offers both to an account with both", async () => {
    const bo = await signUp(app, "bob");
    await signInWithTotp(app, bo, clock.now);
    await addPasskey(bo.user.id);
    await failTenTimes("bob");
    expect((await signIn("bob")).data.error_description).toBe(
      "Too many failed sign-ins: password sign-in is paused for 15 minutes. Your password with a code from your authenticator app (or a backup code) still signs you in, and so does your passkey.",
    );
  });

  it("paused for the address alone: a conditional naming no account's factors, the same for every username", async () => {
    const tess = await signUp(app, "tess");
    await signInWithTotp(app, tess, clock.now);
    await signUp(app, "quinn");
    for (let i = 0; i < 10; i++) await signIn(`ghost${i}`, "wrong guess");
    const answers = await Promise.all(["tess", "quinn", "ghost-unknown"].map((login) => signIn(login)));
    for (const answer of answers) {
      expect(answer.status).toBe(429);
      expect(answer.data).toEqual({
        error: "too_many_attempts",
        error_description:
          "Too many failed sign-ins from this address: password sign-in is paused for 15 minutes. If your account has an authenticator app, your password with a code from it (or a backup code) still signs you in, and so does a passkey if you have one.",
        second_factor_accepted: true,
      });
    }
  });
});

describe("issue 42: other waits are counted in words too", () => {
  it("too many attempts: 1 minute, 5 minutes", () => {
    expect(tooManyAttempts(45).extra.description).toBe("Too many attempts. Try again in 1 minute.");
    expect(tooManyAttempts(300).extra.description).toBe("Too many attempts. Try again in 5 minutes.");
  });
});
