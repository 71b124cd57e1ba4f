import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { sql } from "drizzle-orm";
import * as openpgp from "openpgp";
import { recheckDomains } from "../../src/identity/domains/domains.service.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { manualClock } from "../helpers/clock.ts";
import { signUp, type SignedUp } from "../helpers/identity.ts";

/** A DNS stub: TXT records by name; a name listed in `failing` answers SERVFAIL. */
const txt = new Map<string, string[][]>();
const failing = new Set<string>();
const dns = {
  async resolveTxt(name: string): Promise<string[][]> {
    if (failing.has(name)) throw Object.assign(new Error("queryTxt ESERVFAIL"), { code: "ESERVFAIL" });
    const records = txt.get(name);
    if (!records) throw Object.assign(new Error("queryTxt ENOTFOUND"), { code: "ENOTFOUND" });
    return records;
  },
};
const clock = manualClock();
let app: TestApp;
let ada: SignedUp;
let bob: SignedUp;

beforeAll(async () => {
  app = await startApp({ overrides: { clock, dns } });
  ada = await signUp(app, "ada");
  bob = await signUp(app, "bob");
});
afterAll(() => app.stop());

/** Publishes the record a domain of the API asks for (a record split in chunks, as DNS may). */
const publish = (domain: { txt_record: { name: string; value: string } }) => {
  const value = domain.txt_record.value;
  txt.set(domain.txt_record.name, [["unrelated=1"], [value.slice(0, 10), value.slice(10)]]);
};

describe("custom domains", () => {
  it("adds a domain with the TXT record to publish; refuses what is not a domain", async () => {
    const res = await ada.browser.json("POST", "/api/oauth/me/domains", { domain: " Example.COM. " });
    expect(res.status).toBe(201);
    expect(res.data.domain).toMatchObject({ domain: "example.com", verified: false, txt_record: { name: "_cairn-challenge.example.com" } });
    expect(res.data.domain.txt_record.value).toMatch(/^cairn-verification=[A-Za-z0-9_-]{32}$/);
    for (const domain of ["localhost", "http://example.org/", "127.0.0.1", "exa mple.org", "a..b", "-x.org", `${"x".repeat(64)}.org`, "[::1]"]) {
      const bad = await ada.browser.json("POST", "/api/oauth/me/domains", { domain });
      expect([domain, bad.status]).toEqual([domain, 400]);
    }
    expect((await ada.browser.json("POST", "/api/oauth/me/domains", { domain: "example.com" })).status).toBe(409);
    // An internationalized name is kept in its ASCII form.
    expect((await ada.browser.json("POST", "/api/oauth/me/domains", { domain: "bücher.example" })).data.domain.domain).toBe("xn--bcher-kva.example");
  });

  it("verifies with 'check now' once the record holds the value; not before", async () => {
    const [domain] = (await ada.browser.json("GET", "/api/oauth/me/domains")).data.domains;
    const early = await ada.browser.json("POST", `/api/oauth/me/domains/${domain.id}/verify`);
    expect(early.status).toBe(400);
    expect(early.data.error_description).toContain("No TXT record _cairn-challenge.example.com holds the value yet");
    failing.add(domain.txt_record.name);
    expect((await ada.browser.json("POST", `/api/oauth/me/domains/${domain.id}/verify`)).data.error_description).toContain("DNS could not be asked");
    failing.delete(domain.txt_record.name);
    publish(domain);
    const ok = await ada.browser.json("POST", `/api/oauth/me/domains/${domain.id}/verify`);
    expect(ok.status).toBe(200);
    expect(ok.data.domain).toMatchObject({ domain: "example.com", verified: true });
  });

  it("WebFinger answers acct:<user>@<verified domain> with the issuer, and nothing for another user or an unverified domain", async () => {
    const ask = (resource: string) => fetch(`${app.url}/.well-known/webfinger?resource=${encodeURIComponent(resource)}`);
    const res = await ask("acct:ada@example.com");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ subject: "acct:ada@example.com", links: [{ rel: "http://openid.net/specs/connect/1.0/issuer", href: app.url }] });
    expect((await ask("acct:bob@example.com")).status).toBe(404);
    expect((await ask("acct:ada@xn--bcher-kva.example")).status).toBe(404);
  });

  it("a domain is verified for one account at a time: the latest proof wins", async () => {
    const added = (await bob.browser.json("POST", "/api/oauth/me/domains", { domain: "example.com" })).data.domain;
    publish(added);
    expect((await bob.browser.json("POST", `/api/oauth/me/domains/${added.id}/verify`)).data.domain.verified).toBe(true);
    const adas = (await ada.browser.json("GET", "/api/oauth/me/domains")).data.domains;
    expect(adas.find((d: { domain: string }) => d.domain === "example.com").verified).toBe(false);
    expect((await fetch(`${app.url}/.well-known/webfinger?resource=acct:bob@example.com`)).status).toBe(200);
  });

  it("the periodic re-check keeps a domain while its record stays, and drops it when the record is gone (not on a DNS failure)", async () => {
    const name = "_cairn-challenge.example.com";
    failing.add(name);
    expect(await recheckDomains(app.ctx)).toBe(0);
    failing.delete(name);
    expect(await recheckDomains(app.ctx)).toBe(0);
    txt.delete(name);
    expect(await recheckDomains(app.ctx)).toBe(1);
    const bobs = (await bob.browser.json("GET", "/api/oauth/me/domains")).data.domains;
    expect(bobs[0].verified).toBe(false);
  });

  it("removes a domain; another user's is not found", async () => {
    const [domain] = (await bob.browser.json("GET", "/api/oauth/me/domains")).data.domains;
    expect((await ada.browser.json("DELETE", `/api/oauth/me/domains/${domain.id}`)).status).toBe(404);
    expect((await bob.browser.json("DELETE", `/api/oauth/me/domains/${domain.id}`)).data).toEqual({ ok: true });
    expect((await bob.browser.json("GET", "/api/oauth/me/domains")).data.domains).toEqual([]);
  });
});

const key = async (options: Partial<Parameters<typeof openpgp.generateKey>[0]> = {}) =>
  openpgp.generateKey({
    type: "ecc",
    curve: "curve25519Legacy",
    userIDs: [{ name: "Ada Lovelace", email: "ada@example.com" }],
    format: "armored",
    ...options,
  } as never) as unknown as Promise<{
    publicKey: string;
    privateKey: string;
  }>;

describe("GPG keys", () => {
  it("parses an Ed25519 public key: fingerprint, key id, algorithm, user ids; the account's verified email is marked", async () => {
    const { publicKey } = await key({
      userIDs: [
        { name: "Ada Lovelace", email: "ada@example.com" },
        { name: "Ada at work", email: "ada@work.example" },
      ],
    });
    const parsed = await openpgp.readKey({ armoredKey: publicKey });
    await app.ctx.db.run(sql`UPDATE users SET email_verified = 1 WHERE username = 'ada'`);
    const res = await ada.browser.json("POST", "/api/oauth/me/gpg-keys", { armored: publicKey });
    expect(res.status).toBe(201);
    expect(res.data.gpg_key).toMatchObject({
      fingerprint: parsed.getFingerprint().toUpperCase(),
      key_id: parsed.getKeyID().toHex().toUpperCase(),
      algorithm: "eddsaLegacy (ed25519Legacy)",
      expires_at: null,
      user_ids: [
        { uid: "Ada Lovelace <ada@example.com>", name: "Ada Lovelace", email: "ada@example.com", verified: true },
        { uid: "Ada at work <ada@work.example>", name: "Ada at work", email: "ada@work.example", verified: false },
      ],
    });
    expect((await ada.browser.json("POST", "/api/oauth/me/gpg-keys", { armored: publicKey })).status).toBe(409);
  });

  it("parses an RSA key, and an expired one with its expiry", async () => {
    const { publicKey: rsa } = await key({ type: "rsa", rsaBits: 2048 } as never);
    const rsaAnswer = await ada.browser.json("POST", "/api/oauth/me/gpg-keys", { armored: rsa });
    expect(rsaAnswer.status).toBe(201);
    expect(rsaAnswer.data.gpg_key.algorithm).toBe("rsaEncryptSign 2048");
    const made = new Date(Date.now() - 10 * 86_400_000);
    const { publicKey: expired } = await key({ date: made, keyExpirationTime: 86_400 } as never);
    const expiredAnswer = await ada.browser.json("POST", "/api/oauth/me/gpg-keys", { armored: expired });
    expect(expiredAnswer.status).toBe(201);
    expect(expiredAnswer.data.gpg_key.expires_at).toBe(Math.floor(made.getTime() / 1000) * 1000 + 86_400_000);
  });

  it("refuses a private key, garbage, and a truncated key, changing nothing", async () => {
    const before = (await ada.browser.json("GET", "/api/oauth/me/gpg-keys")).data.gpg_keys.length;
    const { publicKey, privateKey } = await key();
    const answers = await Promise.all(
      [privateKey, "hello", "-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nxsBNBGQ=\n-----END PGP PUBLIC KEY BLOCK-----", publicKey.slice(0, 200)].map((armored) =>
        ada.browser.json("POST", "/api/oauth/me/gpg-keys", { armored }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual([400, 400, 400, 400]);
    expect(answers[0]?.data.error_description).toContain("That is a private key");
    expect((await ada.browser.json("GET", "/api/oauth/me/gpg-keys")).data.gpg_keys.length).toBe(before);
  });

  it("removes a key; another user's is not found", async () => {
    const [first] = (await ada.browser.json("GET", "/api/oauth/me/gpg-keys")).data.gpg_keys;
    expect((await bob.browser.json("DELETE", `/api/oauth/me/gpg-keys/${first.id}`)).status).toBe(404);
    expect((await ada.browser.json("DELETE", `/api/oauth/me/gpg-keys/${first.id}`)).data).toEqual({ ok: true });
  });
});

describe("scopes and claims", () => {
  it("a token without domains:read / gpg:read is refused with insufficient_scope; with them it reads", async () => {
    const pat = async (scopes: string[]) =>
      (await ada.browser.json("POST", "/api/oauth/me/tokens", { name: `t${scopes.join()}`, scopes })).data.secret as string;
    const none = await pat(["profile"]);
    for (const path of ["/api/oauth/me/domains", "/api/oauth/me/gpg-keys"]) {
      const res = await fetch(app.url + path, { headers: { authorization: `Bearer ${none}` } });
      expect([path, res.status]).toEqual([path, 403]);
      expect(((await res.json()) as { error: string }).error).toBe("insufficient_scope");
    }
    const reader = await pat(["domains:read", "gpg:read"]);
    for (const path of ["/api/oauth/me/domains", "/api/oauth/me/gpg-keys"])
      expect((await fetch(app.url + path, { headers: { authorization: `Bearer ${reader}` } })).status).toBe(200);
    const writeRefused = await fetch(`${app.url}/api/oauth/me/domains`, {
      method: "POST",
      headers: { authorization: `Bearer ${reader}`, "content-type": "application/json" },
      body: JSON.stringify({ domain: "ada.example" }),
    });
    expect(writeRefused.status).toBe(403);
  });
});
