import { describe, expect, it } from "bun:test";
import fc from "fast-check";
import { verifyPkceS256 } from "../../src/oauth/protocol/pkce.ts";
import { globToRegex } from "../../src/contract/redirect-glob.ts";
import { gateRedirectUri, isCatchAll, matchRedirectUri, redirectEntryProblem } from "../../src/oauth/protocol/redirect-uri.ts";
import { parseScope } from "../../src/oauth/protocol/scope.ts";

const httpsUrl = fc.webUrl({ validSchemes: ["https"], withQueryParameters: true, withFragments: false });
const segment = fc.stringMatching(/^[a-z0-9]{1,12}$/);

describe("RFC 7636 section 4.6 and appendix B: PKCE S256", () => {
  it("accepts the RFC's own example", () => {
    expect(verifyPkceS256("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk", "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")).toBe(true);
  });
  it("rejects a verifier that does not match the challenge, or of the wrong length", () => {
    expect(verifyPkceS256("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXK", "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")).toBe(false);
    expect(verifyPkceS256("short", "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")).toBe(false);
    expect(verifyPkceS256("a".repeat(129), "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")).toBe(false);
  });
});

describe("spec 1 section 2.2: the redirect safety gate", () => {
  it("accepts https URLs and http loopback, refusing fragments, userinfo and other schemes", () => {
    fc.assert(fc.property(httpsUrl, (url) => expect(gateRedirectUri(url)).not.toBeNull()));
    fc.assert(fc.property(httpsUrl, segment, (url, frag) => expect(gateRedirectUri(`${url}#${frag}`)).toBeNull()));
    fc.assert(fc.property(segment, segment, (user, host) => expect(gateRedirectUri(`https://${user}@${host}.example/cb`)).toBeNull()));
    fc.assert(
      fc.property(fc.constantFrom("http", "ftp", "javascript", "myapp", "file"), segment, (scheme, host) =>
        expect(gateRedirectUri(`${scheme}://${host}.example/cb`)).toBeNull(),
      ),
    );
    for (const ok of ["http://localhost:8080/cb", "http://127.0.0.1/cb", "http://[::1]:9/cb"]) expect(gateRedirectUri(ok)).not.toBeNull();
  });

  it("http only for a host that is loopback, not one that starts like it", () => {
    for (const nearMiss of [
      "http://127.0.0.1.evil.example/cb",
      "http://127.0.0.1.nip.io/cb",
      "http://localhost.evil.example/cb",
      "http://localhostevil.example/cb",
      "http://evil-localhost/cb",
      "http://1270.0.0.1.example/cb",
    ])
      expect({ nearMiss, gated: gateRedirectUri(nearMiss) }).toEqual({ nearMiss, gated: null });
  });
});

describe("spec 1 section 2.2: matching", () => {
  it("equals: matches the same URL after normalization, and nothing longer or different", () => {
    fc.assert(
      fc.property(segment, segment, (host, path) => {
        const entries = [{ uri: `https://${host}.example.com/${path}`, match: "equals" as const }];
        expect(matchRedirectUri(entries, `HTTPS://${host.toUpperCase()}.EXAMPLE.com:443/${path}`)).not.toBeNull();
        expect(matchRedirectUri(entries, `https://${host}.example.com/${path}x`)).toBeNull();
        expect(matchRedirectUri(entries, `https://${host}.example.com.evil.com/${path}`)).toBeNull();
        expect(matchRedirectUri(entries, `https://${host}.example.com/${path}#frag`)).toBeNull();
      }),
    );
  });

  it("wildcard: `*` matches any run of characters, the rest literally", () => {
    fc.assert(
      // Dot segments are left out: normalization resolves them (so `/cb/../x` cannot escape `/cb/*`).
      fc.property(segment, segment, fc.stringMatching(/^[a-z0-9-]{0,12}(\/[a-z0-9-]{1,5}){0,3}$/), (host, path, anything) => {
        const entries = [{ uri: `https://*.${host}.example/${path}/*`, match: "wildcard" as const }];
        expect(matchRedirectUri(entries, `https://tenant.${host}.example/${path}/${anything}`)).not.toBeNull();
        expect(matchRedirectUri(entries, `https://tenant.${host}Xexample/${path}/${anything}`)).toBeNull(); // the dot is literal
      }),
    );
  });

  it("wildcard: a `*` in the host never reaches past the host, nor one in the path past the path", () => {
    const entries = [{ uri: "https://*.app.example/cb", match: "wildcard" as const }];
    expect(matchRedirectUri(entries, "https://tenant.app.example/cb")).not.toBeNull();
    for (const hostile of [
      "https://evil.example/.app.example/cb",
      "https://evil.example/x?.app.example/cb",
      "https://evil.example\\.app.example/cb",
      "https://evil.example#.app.example/cb",
      "https://u@evil.example/.app.example/cb",
    ])
      expect(matchRedirectUri(entries, hostile)).toBeNull();
  });

  it("wildcard: a dot-segment cannot climb out of the allowed path", () => {
    expect(matchRedirectUri([{ uri: "https://app.example/cb/*", match: "wildcard" }], "https://app.example/cb/../admin")).toBeNull();
  });

  it("regex: matched against the whole candidate, never a part of it", () => {
    const entries = [{ uri: "https://app\\.example\\.com/cb/[0-9]+", match: "regex" as const }];
    expect(matchRedirectUri(entries, "https://app.example.com/cb/42")).not.toBeNull();
    expect(matchRedirectUri(entries, "https://app.example.com/cb/42/more")).toBeNull();
    expect(matchRedirectUri(entries, "https://evil.com/?https://app.example.com/cb/42")).toBeNull();
  });

  it("regex: a pattern that would backtrack catastrophically still answers at once", () => {
    // A linear-time engine answers this in no time; a backtracking one would never return (2^2000 paths).
    const entries = [{ uri: "https://a/(a+)+$", match: "regex" as const }];
    expect(matchRedirectUri(entries, `https://a/${"a".repeat(2000)}!`)).toBeNull();
    // The sign of an engine that cannot backtrack: it has no backreferences to offer.
    expect(redirectEntryProblem({ uri: "https://a/(a+)\\1", match: "regex" })).toContain("is not valid");
  });

  it("a catch-all regex accepts any URL that passes the gate (permitted but unsafe) and is flagged", () => {
    const catchAll = { uri: ".*", match: "regex" as const };
    fc.assert(fc.property(httpsUrl, (url) => expect(matchRedirectUri([catchAll], url)).not.toBeNull()));
    expect(isCatchAll(catchAll)).toBe(true);
    expect(isCatchAll({ uri: "https://*/*", match: "wildcard" })).toBe(true);
    expect(isCatchAll({ uri: "https://*.app.example/*", match: "wildcard" })).toBe(false);
    expect(isCatchAll({ uri: "https://app\\.example/.*", match: "regex" })).toBe(false);
    // ... but never one that fails the gate.
    expect(matchRedirectUri([catchAll], "javascript:alert(1)")).toBeNull();
  });

  it("glob escaping: a glob without `*` matches exactly itself", () => {
    fc.assert(
      fc.property(httpsUrl, (url) => {
        const normalized = gateRedirectUri(url) as string;
        expect(matchRedirectUri([{ uri: normalized.replaceAll("*", ""), match: "wildcard" }], normalized) !== null).toBe(!normalized.includes("*"));
        expect(globToRegex("a.b")).toBe("a\\.b");
      }),
    );
  });

  it("refuses entries that are not valid", () => {
    expect(redirectEntryProblem({ uri: "http://example.com/cb", match: "equals" })).not.toBeNull();
    expect(redirectEntryProblem({ uri: "(unclosed", match: "regex" })).not.toBeNull();
    expect(redirectEntryProblem({ uri: "", match: "wildcard" })).not.toBeNull();
    expect(redirectEntryProblem({ uri: "https://app.example.com/cb", match: "equals" })).toBeNull();
  });
});

describe("RFC 6749 section 3.3: scope strings", () => {
  const token = fc.stringMatching(/^[\x21\x23-\x5B\x5D-\x7E]{1,12}$/);
  it("splits on spaces, keeps order and drops repeats", () => {
    fc.assert(
      fc.property(fc.array(token, { maxLength: 10 }), fc.constantFrom(" ", "  "), (tokens, sep) => {
        expect(parseScope(` ${tokens.join(sep)} `)).toEqual([...new Set(tokens)]);
      }),
    );
  });
  it("refuses a token with a quote, backslash or control character", () => {
    fc.assert(fc.property(token, fc.constantFrom('"', "\\", "\t", "\u0000", "é"), (t, bad) => expect(parseScope(`openid ${t}${bad}`)).toBeNull()));
  });
});
