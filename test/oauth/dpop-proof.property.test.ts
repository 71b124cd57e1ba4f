import { describe, expect, it } from "bun:test";
import fc from "fast-check";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { accessTokenHash, checkDpopProof, DPOP_IAT_WINDOW_S, normalizeHtu } from "../../src/oauth/protocol/dpop.ts";

const NOW = 1_800_000_000_000;
const URL_ = "https://id.example.com/api/oauth/token";
const expectPost = { method: "POST", url: URL_, now: NOW };

async function proofWith(alg: "ES256" | "RS256" | "EdDSA", claims: Record<string, unknown> = {}, header: Record<string, unknown> = {}) {
  const key = await generateKeyPair(alg, { extractable: true });
  const jwt = new SignJWT({ jti: crypto.randomUUID(), htm: "POST", htu: URL_, iat: NOW / 1000, ...claims });
  return jwt.setProtectedHeader({ alg, typ: "dpop+jwt", jwk: await exportJWK(key.publicKey), ...header }).sign(key.privateKey);
}

const refusal = (proof: Promise<string>, expect_: Parameters<typeof checkDpopProof>[1] = expectPost) =>
  proof
    .then((p) => checkDpopProof(p, expect_))
    .then(
      () => "accepted",
      (e: Error) => e.message,
    );

describe("RFC 9449 section 4.3: proof checks", () => {
  it("accepts RS256, ES256 and EdDSA proofs and answers the key's thumbprint", async () => {
    for (const alg of ["RS256", "ES256", "EdDSA"] as const) {
      const checked = await checkDpopProof(await proofWith(alg), expectPost);
      expect(checked.jkt).toMatch(/^[A-Za-z0-9_-]{43}$/);
    }
  });

  it("refuses each broken part with a message naming it", async () => {
    expect(await refusal(Promise.resolve("not a jwt"))).toBe("the DPoP proof is not a JWT");
    expect(await refusal(proofWith("ES256", {}, { typ: "JWT" }))).toBe('the DPoP proof must have typ "dpop+jwt"');
    expect(await refusal(proofWith("ES256", {}, { jwk: undefined }))).toBe("the DPoP proof must carry its public key in the jwk header");
    expect(await refusal(proofWith("ES256", { htm: "GET" }))).toBe("the DPoP proof's htm must be POST");
    expect(await refusal(proofWith("ES256", { htu: "https://other.example.com/api/oauth/token" }))).toBe(
      "the DPoP proof's htu must be https://id.example.com/api/oauth/token",
    );
    expect(await refusal(proofWith("ES256", { jti: undefined }))).toBe("the DPoP proof needs a jti");
    expect(await refusal(proofWith("ES256", { iat: NOW / 1000 - DPOP_IAT_WINDOW_S - 1 }))).toBe(
      `the DPoP proof's iat must be within ${DPOP_IAT_WINDOW_S} seconds of now`,
    );
    expect(await refusal(proofWith("ES256", { iat: NOW / 1000 + DPOP_IAT_WINDOW_S + 1 }))).toBe(
      `the DPoP proof's iat must be within ${DPOP_IAT_WINDOW_S} seconds of now`,
    );
    expect(await refusal(proofWith("ES256", { ath: accessTokenHash("a") }), { ...expectPost, accessToken: "b" })).toBe(
      "the DPoP proof's ath does not match the access token",
    );
  });

  it("refuses a private key in the header and an algorithm outside the list", async () => {
    const key = await generateKeyPair("ES256", { extractable: true });
    const jwk = await exportJWK(key.privateKey);
    const leaky = await new SignJWT({ jti: "x", htm: "POST", htu: URL_, iat: NOW / 1000 })
      .setProtectedHeader({ alg: "ES256", typ: "dpop+jwt", jwk })
      .sign(key.privateKey);
    expect(await refusal(Promise.resolve(leaky))).toBe("the DPoP proof's jwk must be a public key");
    const hs = await new SignJWT({ jti: "x", htm: "POST", htu: URL_, iat: NOW / 1000 })
      .setProtectedHeader({ alg: "HS256", typ: "dpop+jwt", jwk: { kty: "oct" } })
      .sign(new Uint8Array(32));
    expect(await refusal(Promise.resolve(hs))).toBe("the DPoP proof must be signed with RS256, ES256, EdDSA");
  });

  it("refuses a signature made by a key other than the one in the header", async () => {
    const signer = await generateKeyPair("ES256");
    const shown = await generateKeyPair("ES256", { extractable: true });
    const forged = await new SignJWT({ jti: "x", htm: "POST", htu: URL_, iat: NOW / 1000 })
      .setProtectedHeader({ alg: "ES256", typ: "dpop+jwt", jwk: await exportJWK(shown.publicKey) })
      .sign(signer.privateKey);
    expect(await refusal(Promise.resolve(forged))).toStartWith("the DPoP proof's signature does not verify");
  });
});

describe("RFC 9449 section 4.3 rule 9: htu normalisation", () => {
  const host = fc.domain();
  const path = fc.array(fc.stringMatching(/^[a-z0-9._~-]{1,8}$/), { maxLength: 4 }).map((parts) => `/${parts.join("/")}`);
  it("ignores query and fragment, and the case of scheme and host", () => {
    fc.assert(
      fc.property(host, path, fc.webQueryParameters(), fc.webFragments(), (h, p, q, f) => {
        const base = `https://${h}${p}`;
        expect(normalizeHtu(`${base}?${q}#${f}`)).toBe(normalizeHtu(base));
        expect(normalizeHtu(`HTTPS://${h.toUpperCase()}${p}`)).toBe(normalizeHtu(base));
      }),
    );
  });
  it("tells different paths and default ports apart correctly", () => {
    expect(normalizeHtu("https://a.example/x")).not.toBe(normalizeHtu("https://a.example/y"));
    expect(normalizeHtu("https://a.example:443/x")).toBe(normalizeHtu("https://a.example/x"));
    expect(normalizeHtu("https://a.example:8443/x")).not.toBe(normalizeHtu("https://a.example/x"));
    expect(normalizeHtu("ftp://a.example/x")).toBeNull();
    expect(normalizeHtu("not a url")).toBeNull();
  });
});
