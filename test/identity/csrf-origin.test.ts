import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { originRefusal } from "../../src/access/csrf.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { PASSWORD, signUp, type SignedUp } from "../helpers/identity.ts";

/*
 * ARCHITECTURE section 3: a cookie-authenticated write needs an Origin that is the issuer's, whole.
 * Near misses are what a prefix or substring check would let through: a host that starts with the
 * issuer's, another port or scheme of the same host.
 */
const ISSUER = "https://cairn.example";
const nearMisses = (ours: string) => {
  const { protocol, hostname, port } = new URL(ours);
  return [
    `${ours}.evil.test`,
    `${ours}evil.test`,
    `${ours}:8443`,
    `${ours}0`,
    `${protocol === "https:" ? "http:" : "https:"}//${hostname}${port ? `:${port}` : ""}`,
    `${ours}/`,
    "null",
  ];
};
const post = (origin: string | null) => new Request(`${ISSUER}/api/oauth/me`, { method: "PATCH", headers: origin === null ? {} : { origin } });

describe("the origin check (src/access/csrf.ts)", () => {
  it("passes the issuer's own origin under either rule", () => {
    expect(originRefusal({ issuer: ISSUER }, post(ISSUER), "cookie-write")).toBeNull();
    expect(originRefusal({ issuer: ISSUER }, post(ISSUER), "not-foreign")).toBeNull();
  });

  it("refuses an Origin that only starts like the issuer's, or is another port or scheme of its host", () => {
    for (const origin of nearMisses(ISSUER))
      for (const rule of ["cookie-write", "not-foreign"] as const)
        expect({ origin, rule, refused: originRefusal({ issuer: ISSUER }, post(origin), rule) !== null }).toEqual({ origin, rule, refused: true });
  });

  it("refuses a cookie write with no Origin at all, and lets an unauthenticated one without it pass", () => {
    expect(originRefusal({ issuer: ISSUER }, post(null), "cookie-write")).not.toBeNull();
    expect(originRefusal({ issuer: ISSUER }, post(null), "not-foreign")).toBeNull();
  });
});

describe("near-miss Origins against the running app", () => {
  let app: TestApp;
  let user: SignedUp;
  beforeAll(async () => {
    app = await startApp();
    user = await signUp(app, "origin");
  });
  afterAll(() => app.stop());

  it("a cookie-authenticated write from an Origin that starts with the issuer's is refused, and changes nothing", async () => {
    const cookie = [...user.browser.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    for (const origin of nearMisses(app.url)) {
      const res = await fetch(`${app.url}/api/oauth/me`, {
        method: "PATCH",
        headers: { cookie, origin, "content-type": "application/json" },
        body: JSON.stringify({ name: "Forged" }),
      });
      expect({ origin, status: res.status }).toEqual({ origin, status: 403 });
    }
    expect((await user.browser.json("GET", "/api/oauth/me")).data.user.name).toBe("origin");
  });

  it("a sign-in posted from an Origin that starts with the issuer's is refused (login CSRF)", async () => {
    for (const origin of nearMisses(app.url)) {
      const res = await app.client().json("POST", "/api/auth/login", { login: "origin", password: PASSWORD }, { origin });
      expect({ origin, status: res.status }).toEqual({ origin, status: 403 });
    }
  });
});
