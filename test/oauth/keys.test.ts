import { describe, expect, it } from "bun:test";
import { ml_dsa65 } from "@noble/post-quantum/ml-dsa.js";
import { sql } from "drizzle-orm";
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from "jose";
import { signJwt } from "../../src/keys/jwt-signer.ts";
import { KEY_MAX_AGE_MS, KEY_OVERLAP_MS } from "../../src/keys/keystore.ts";
import { rotateIdTokenKeys, rotateIfDue } from "../../src/keys/rotation.ts";
import { startApp } from "../helpers/app.ts";
import { cli } from "../helpers/cli.ts";
import { manualClock } from "../helpers/clock.ts";
import { signUp } from "../helpers/identity.ts";
import { storeEnv } from "../helpers/pg-store.ts";

const jwks = async (app: Awaited<ReturnType<typeof startApp>>) => (await app.json("GET", "/.well-known/jwks.json")).data.keys as Record<string, string>[];

describe("signing keys", () => {
  it("publishes an ML-DSA-65 (AKP) and an RS256 key, private parts sealed at rest", async () => {
    const app = await startApp();
    try {
      const keys = await jwks(app);
      expect(keys.map((k) => [k.kty, k.alg]).sort()).toEqual([
        ["AKP", "ML-DSA-65"],
        ["RSA", "RS256"],
      ]);
      for (const k of keys) {
        expect(k.kid).toBeString();
        expect(k.priv).toBeUndefined();
        expect(k.d).toBeUndefined();
      }
      const stored = JSON.stringify(await app.ctx.db.all(sql`SELECT * FROM signing_keys`));
      expect(stored).not.toContain('"priv"');
      expect(stored).not.toContain('"d"');
    } finally {
      await app.stop();
    }
  });

  it("rotate: new keys sign at once; the old ones stay published for the overlap, then leave", async () => {
    const clock = manualClock();
    const app = await startApp({ overrides: { clock } });
    try {
      const before = (await jwks(app)).map((k) => k.kid);
      await rotateIfDue(app.ctx);
      expect((await jwks(app)).map((k) => k.kid)).toEqual(before); // not due yet
      const fresh = await rotateIdTokenKeys(app.ctx);
      clock.advance(61_000);
      const during = (await jwks(app)).map((k) => k.kid);
      expect(during).toEqual(expect.arrayContaining([...before, ...fresh]));
      const token = await signJwt(app.ctx, "id_token", "ML-DSA-65", { sub: "x" });
      expect(fresh).toContain(decodeProtectedHeader(token).kid as string);
      clock.advance(KEY_OVERLAP_MS);
      expect((await jwks(app)).map((k) => k.kid).sort()).toEqual([...fresh].sort());
      clock.advance(KEY_MAX_AGE_MS);
      await rotateIfDue(app.ctx);
      clock.advance(61_000);
      expect((await jwks(app)).length).toBe(4); // rotated again: two new, two in their overlap
    } finally {
      await app.stop();
    }
  });

  it("falls back to @noble/post-quantum for ML-DSA-65, with signatures both implementations verify", async () => {
    const app = await startApp();
    try {
      const token = await signJwt(app.ctx, "id_token", "ML-DSA-65", { sub: "fallback", iss: app.url }, "JWT", true);
      const keys = await jwks(app);
      const { payload } = await jwtVerify(token, createLocalJWKSet({ keys }), { issuer: app.url });
      expect(payload.sub).toBe("fallback");
      const key = keys.find((k) => k.kid === decodeProtectedHeader(token).kid) as Record<string, string>;
      const [h, p, s] = token.split(".") as [string, string, string];
      expect(ml_dsa65.verify(Buffer.from(s, "base64url"), new TextEncoder().encode(`${h}.${p}`), Buffer.from(key.pub as string, "base64url"))).toBe(true);
    } finally {
      await app.stop();
    }
  });

  it("cairn keys rotate prints the new key ids", async () => {
    const app = await startApp();
    const before = (await jwks(app)).map((k) => k.kid);
    await app.stop();
    const out = cli(["keys", "rotate"], { CAIRN_DATA: app.dataDir, ...(await storeEnv(app.dataDir, {})) });
    expect(out.code).toBe(0);
    const kids = /new signing keys: (\S+), (\S+);/.exec(out.stdout);
    expect(kids).not.toBeNull();
    expect(before).not.toContain(kids?.[1] as string);
  });
});

describe("RFC 7033: WebFinger issuer discovery", () => {
  it("answers a JRD naming the issuer for a local account, 404 otherwise", async () => {
    const app = await startApp();
    try {
      await signUp(app, "alice");
      const host = new URL(app.url).host;
      const rel = "http://openid.net/specs/connect/1.0/issuer";
      const res = await app.fetch(`/.well-known/webfinger?resource=${encodeURIComponent(`acct:alice@${host}`)}&rel=${encodeURIComponent(rel)}`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("application/jrd+json");
      expect(await res.json()).toEqual({ subject: `acct:alice@${host}`, links: [{ rel, href: app.url }] });
      expect((await app.fetch(`/.well-known/webfinger?resource=${encodeURIComponent(`acct:nobody@${host}`)}`)).status).toBe(404);
      expect((await app.fetch(`/.well-known/webfinger?resource=${encodeURIComponent("acct:alice@other.example")}`)).status).toBe(404);
      expect((await app.fetch("/.well-known/webfinger")).status).toBe(400);
    } finally {
      await app.stop();
    }
  });
});
