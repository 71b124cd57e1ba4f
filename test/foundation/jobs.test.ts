import { describe, expect, it } from "bun:test";
import { purgeExpired } from "../../src/jobs/purge.ts";
import { startApp } from "../helpers/app.ts";
import { manualClock } from "../helpers/clock.ts";
import { PASSWORD, signUp } from "../helpers/identity.ts";

describe("purge job", () => {
  it("drops expired one-use tickets, old rate-limit hits and long-ended sessions, and keeps live ones", async () => {
    const clock = manualClock();
    const app = await startApp({ overrides: { clock } });
    try {
      const u = await signUp(app, "admin");
      await app.client().json("POST", "/api/auth/login", { login: "admin", password: "wrong password" });
      await u.browser.json("POST", "/api/oauth/me/passkeys/options");
      const count = (table: string) => (app.ctx.db.$client.query(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
      await purgeExpired(app.ctx);
      expect(count("rate_limit_hits")).toBe(3); // per typed login, per address, per account
      expect(count("webauthn_challenges")).toBe(1);
      clock.advance(60 * 86_400_000);
      const fresh = app.client();
      await fresh.json("POST", "/api/auth/login", { login: "admin", password: PASSWORD });
      await purgeExpired(app.ctx);
      expect(count("rate_limit_hits")).toBe(0);
      expect(count("webauthn_challenges")).toBe(0);
      expect(count("sessions")).toBe(1); // the old one ended 46 days ago; the fresh one lives
      expect((await fresh.json("GET", "/api/auth/session")).status).toBe(200);
    } finally {
      await app.stop();
    }
  });
});
