import { describe, expect, it } from "bun:test";
import fc from "fast-check";
import { type CompiledRule, compileRules, isRuleTarget, matchRequest } from "../../src/forward-auth/rules/rules.match.ts";

/*
 * Forward auth's rule matching (issue 45): first match wins, hosts exact or `*.`, path prefixes on
 * whole segments after resolving dots, bypass paths, and the redirect-target check (no open redirect).
 */

const HEADERS = { user: "Remote-User", email: "Remote-Email", name: "Remote-Name", groups: "Remote-Groups" };
const ALLOW = { everyone: true, teams: [], groups: [], admins: false };
let ids = 0;
const rule = (fields: Partial<CompiledRule> & { host: string }): CompiledRule => ({
  id: `r${++ids}`,
  pathPrefixes: [],
  methods: [],
  allow: ALLOW,
  requireMfa: false,
  bypassPaths: [],
  headers: HEADERS,
  position: 0,
  ...fields,
});
const req = (host: string, path: string, method = "GET") => ({ host, path, method });
const idOf = (m: ReturnType<typeof matchRequest>) => (m.kind === "none" ? "none" : `${m.kind}:${m.rule.id}`);

// Small alphabets, so random rules and requests meet often.
const label = fc.constantFrom("a", "b", "home", "example");
const segment = fc.constantFrom("a", "b", "api", "public", "admin");
const port = fc.option(fc.constantFrom(8080, 8443), { freq: 4 });
const prefix = fc.array(segment, { minLength: 0, maxLength: 2 }).map((s) => `/${s.join("/")}`);
const ruleArb = fc.record({
  wild: fc.boolean(),
  labels: fc.array(label, { minLength: 1, maxLength: 2 }),
  port,
  pathPrefixes: fc.array(prefix, { maxLength: 2 }),
  bypassPaths: fc.array(prefix, { maxLength: 2 }),
  methods: fc.subarray(["GET", "POST", "PUT"]),
  position: fc.integer({ min: 0, max: 5 }),
});
const rulesArb = fc
  .array(ruleArb, { maxLength: 25 })
  .map((list) => list.map((r) => rule({ host: `${r.wild ? "*." : ""}${r.labels.join(".")}${r.port ? `:${r.port}` : ""}`, ...r })));
const requestArb = fc.record({
  labels: fc.array(label, { minLength: 1, maxLength: 4 }),
  upper: fc.boolean(),
  dot: fc.boolean(),
  port,
  segments: fc.array(segment, { maxLength: 4 }),
  slash: fc.boolean(),
  method: fc.constantFrom("GET", "POST", "PUT", "DELETE", "get"),
});

/** The reference: every rule tried in order, with the plainest reading of hosts and segments. */
function naiveMatch(rules: CompiledRule[], r: { host: string; path: string; method: string }) {
  const [rawName, rawPort] = r.host.toLowerCase().split(":") as [string, string | undefined];
  const name = rawName.replace(/\.$/, "");
  const segs = r.path.split("/").filter((s) => s !== "");
  const under = (p: string) => {
    const ps = p.split("/").filter((s) => s !== "");
    return ps.every((s, i) => segs[i] === s);
  };
  const ordered = rules.map((rule, i) => ({ rule, i })).sort((a, b) => a.rule.position - b.rule.position || a.i - b.i);
  for (const { rule } of ordered) {
    const [host, rulePort] = rule.host.split(":") as [string, string | undefined];
    const hostOk = host.startsWith("*.") ? name.endsWith(host.slice(1)) : name === host;
    if (!hostOk || (rulePort !== undefined && rulePort !== rawPort)) continue;
    if (rule.methods.length > 0 && !rule.methods.includes(r.method.toUpperCase())) continue;
    if (rule.pathPrefixes.length > 0 && !rule.pathPrefixes.some(under)) continue;
    return `${rule.bypassPaths.some(under) ? "bypass" : "rule"}:${rule.id}`;
  }
  return "none";
}

describe("first match wins", () => {
  it("agrees with trying every rule in order, over random rule lists and requests", () => {
    fc.assert(
      fc.property(rulesArb, fc.array(requestArb, { minLength: 1, maxLength: 10 }), (rules, requests) => {
        const set = compileRules(rules);
        for (const r of requests) {
          const name = r.labels.join(".");
          const host = `${r.upper ? name.toUpperCase() : name}${r.dot ? "." : ""}${r.port ? `:${r.port}` : ""}`;
          const path = `/${r.segments.join("/")}${r.slash && r.segments.length > 0 ? "/" : ""}`;
          const request = req(host, path, r.method);
          expect(idOf(matchRequest(set, request))).toBe(naiveMatch(rules, request));
        }
      }),
      { numRuns: 500 },
    );
  });

  it("orders by position, ties by the order given, and a wildcard beside an exact host by that order too", () => {
    const wild = rule({ host: "*.home.example", position: 1 });
    const exact = rule({ host: "app.home.example", position: 1 });
    const later = rule({ host: "app.home.example", position: 0, methods: ["POST"] });
    const set = compileRules([wild, exact, later]);
    expect(idOf(matchRequest(set, req("app.home.example", "/")))).toBe(`rule:${wild.id}`);
    expect(idOf(matchRequest(set, req("APP.Home.Example.", "/", "post")))).toBe(`rule:${later.id}`);
    expect(idOf(matchRequest(set, req("home.example", "/")))).toBe("none");
    expect(idOf(matchRequest(set, req("b.c.home.example", "/")))).toBe(`rule:${wild.id}`);
    expect(idOf(matchRequest(set, req("evilhome.example", "/")))).toBe("none");
  });

  it("compares the port only when the rule names one", () => {
    const any = rule({ host: "a.example", position: 1 });
    const alt = rule({ host: "a.example:8443", position: 0 });
    const set = compileRules([any, alt]);
    expect(idOf(matchRequest(set, req("a.example:8443", "/")))).toBe(`rule:${alt.id}`);
    expect(idOf(matchRequest(set, req("a.example:08443", "/")))).toBe(`rule:${alt.id}`);
    expect(idOf(matchRequest(set, req("a.example:80", "/")))).toBe(`rule:${any.id}`);
    expect(idOf(matchRequest(set, req("a.example", "/")))).toBe(`rule:${any.id}`);
    for (const bad of ["a.example:0", "a.example:99999", "a.example:x", "user@a.example", "a.example/x", "[::1]:8443", "a..example", ""]) {
      expect(idOf(matchRequest(set, req(bad, "/")))).toBe("none");
    }
  });

  it("matches a thousand rules through the host index (no rule of another host is consulted)", () => {
    const rules = Array.from({ length: 1000 }, (_, i) => rule({ host: `app${i}.home.example`, position: i, pathPrefixes: ["/x"] }));
    const set = compileRules([...rules, rule({ host: "*.home.example", position: 5000 })]);
    expect(set.exact.size).toBe(1000);
    expect(idOf(matchRequest(set, req("app999.home.example", "/x/y")))).toBe(`rule:${rules[999]?.id}`);
    expect(matchRequest(set, req("app999.home.example", "/y")).kind).toBe("rule");
    expect(idOf(matchRequest(set, req("nope.example", "/x")))).toBe("none");
  });
});

describe("path prefixes: whole segments, after resolving dots", () => {
  const host = "h.example";
  it("a path under a prefix always matches; one differing in a segment never does", () => {
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 3 }), fc.array(segment, { maxLength: 3 }), fc.nat(2), (pre, rest, k) => {
        const r = rule({ host, pathPrefixes: [`/${pre.join("/")}`] });
        const set = compileRules([r]);
        const inside = `/${[...pre, ...rest].join("/")}`;
        expect(matchRequest(set, req(host, inside)).kind).toBe("rule");
        expect(matchRequest(set, req(host, `${inside}?q=/other#f`)).kind).toBe("rule");
        const i = k % pre.length;
        for (const changed of [`${pre[i]}x`, `x${pre[i]}`, `${pre[i]}.`, ""]) {
          const other = pre.map((s, j) => (j === i ? changed : s));
          expect(matchRequest(set, req(host, `/${[...other, ...rest].join("/")}`)).kind).toBe("none");
        }
      }),
      { numRuns: 300 },
    );
  });

  it("reads escapes of unreserved characters as the characters, and leaves the query out", () => {
    const set = compileRules([rule({ host, pathPrefixes: ["/media"] })]);
    for (const path of ["/media", "/media/", "/%6Dedia/x", "/m%65dia", "/media?x=/y", "/media#x", "/a/../media/x", "/./media"]) {
      expect([path, matchRequest(set, req(host, path)).kind]).toEqual([path, "rule"]);
    }
    for (const path of ["/mediax", "/medi", "/", "/x/media", "media", "/media%2Fx", "/../mediax"]) {
      expect([path, matchRequest(set, req(host, path)).kind]).toEqual([path, "none"]);
    }
  });

  it("reads a request for /public/../admin as /admin", () => {
    const admin = rule({ host, pathPrefixes: ["/admin"], allow: { ...ALLOW, everyone: false, admins: true } });
    const rest = rule({ host, position: 1, bypassPaths: ["/public"] });
    const set = compileRules([admin, rest]);
    expect(idOf(matchRequest(set, req(host, "/public/../admin")))).toBe(`rule:${admin.id}`);
    expect(idOf(matchRequest(set, req(host, "/public/%2e%2e/admin/x")))).toBe(`rule:${admin.id}`);
    expect(idOf(matchRequest(set, req(host, "/public/x")))).toBe(`bypass:${rest.id}`);
    expect(idOf(matchRequest(set, req(host, "/admin/../public")))).toBe(`bypass:${rest.id}`);
  });
});

/** Dot segments, and what lenient servers read as separators, strip, decode again or fold. */
const trickySegment = fc.constantFrom(
  ...["public", "Public", "admin", "ADMIN", "%41dmin", "adm%69n", "a", "..", ".", "%2e%2e", "%2E.", ".%2e", "", "..;x", "admin;x"],
  ...["%2fadmin", "a%2F..", "%2F", "\\..", "\\", "%5c..", "%3b", "..%3bx", "%252e%252e", "api", "v1", "api%2Fv1", "secret", "Secret", "Zone"],
);
/**
 * What a browser or a server may make of a path: WHATWG's reading (backslashes as slashes, dots
 * resolved) after any mix of decoding slashes, backslashes, `;` or a double escape, dropping
 * `;parameters` and collapsing `//`; then as it is, lower-cased, or decoded.
 */
function readings(path: string): string[] {
  const variants = [path];
  const also = (f: (p: string) => string) => variants.push(...variants.map(f));
  also((p) => p.replace(/%2f/gi, "/"));
  also((p) => p.replace(/%5c/gi, "\\"));
  also((p) => p.replace(/%3b/gi, ";"));
  also((p) => p.replace(/;[^/\\]*/g, ""));
  also((p) => p.replace(/[/\\]+/g, "/"));
  also((p) => p.replace(/%25/gi, "%"));
  const decoded = (p: string) => {
    try {
      return decodeURIComponent(p);
    } catch {
      return p;
    }
  };
  return variants.flatMap((v) => {
    const w = new URL(`http://h${v}`).pathname;
    return [w, w.toLowerCase(), decoded(w), decoded(w).toLowerCase()];
  });
}
const under = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`);

describe("no path trick crosses between a bypass path and a protected one", () => {
  const host = "h.example";
  const admin = rule({ host, pathPrefixes: ["/admin"], allow: { ...ALLOW, everyone: false, admins: true } });
  const rest = rule({ host, position: 1, bypassPaths: ["/public"] });
  const set = compileRules([admin, rest]);

  it("a bypass only where every reading of the path lies under a bypass path; under a protected prefix only its rule or none", () => {
    // A prefix with capitals too: then every request is read both ways.
    const zone = rule({ host, pathPrefixes: ["/admin", "/Secret/Zone"], allow: { ...ALLOW, everyone: false, admins: true } });
    const open = rule({ host, position: 1, bypassPaths: ["/public", "/api/v1"] });
    for (const [guard, bypassing] of [
      [admin, rest],
      [zone, open],
    ] as const) {
      const rules = compileRules([guard, bypassing]);
      const bypassed = bypassing.bypassPaths;
      fc.assert(
        fc.property(fc.array(trickySegment, { minLength: 1, maxLength: 6 }), (segments) => {
          const path = `/${segments.join("/")}`;
          const match = matchRequest(rules, req(host, path));
          const all = readings(path);
          if (all.some((p) => !bypassed.some((b) => under(p, b)))) expect([path, match.kind]).not.toEqual([path, "bypass"]);
          if (all.some((p) => guard.pathPrefixes.some((g) => under(p.toLowerCase(), g.toLowerCase())))) {
            expect({ path, ok: [`rule:${guard.id}`, "none"].includes(idOf(match)) }).toEqual({ path, ok: true });
          }
        }),
        { numRuns: 3000 },
      );
    }
  });

  it("plain paths get their plain reading: /public/... passes, dots resolved", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom("public", "admin", "a", "..", ".", "%2e%2e"), { minLength: 1, maxLength: 6 }), (segments) => {
        const path = `/${segments.join("/")}`;
        const resolved = new URL(`http://h${path}`).pathname;
        const expected = under(resolved, "/admin") ? `rule:${admin.id}` : under(resolved, "/public") ? `bypass:${rest.id}` : `rule:${rest.id}`;
        expect([path, idOf(matchRequest(set, req(host, path)))]).toEqual([path, expected]);
      }),
      { numRuns: 1000 },
    );
  });

  it("refuses the known tricks outright", () => {
    for (const path of [
      "/public%2F..%2Fadmin",
      "/public\\..\\admin",
      "/public/..;/admin",
      "/PUBLIC/../Admin",
      "/Admin",
      "//admin",
      "/public/..%5cadmin",
      "/admin;x",
      "/public/%252e%252e/admin",
    ]) {
      expect([path, matchRequest(set, req(host, path)).kind]).toEqual([path, "none"]);
    }
  });
});

describe("redirect targets: only hosts a rule names", () => {
  const rules = [rule({ host: "app.home.example" }), rule({ host: "*.lab.example" }), rule({ host: "alt.home.example:8443" })];
  const set = compileRules(rules);
  const named = (hostname: string, port: string, scheme: string) => {
    const p = Number(port || (scheme === "https:" ? 443 : 80));
    return (
      hostname === "app.home.example" || (hostname.endsWith(".lab.example") && hostname !== "lab.example") || (hostname === "alt.home.example" && p === 8443)
    );
  };

  it("accepts the hosts rules name, on http and https", () => {
    for (const url of [
      "https://app.home.example/",
      "http://app.home.example",
      "https://APP.home.example./x?y#z",
      "https://a.b.lab.example/x",
      "https://alt.home.example:8443/",
      "HTTPS://app.home.example:443/",
    ]) {
      expect([url, isRuleTarget(set, url)]).toEqual([url, true]);
    }
  });

  it("refuses user info, backslashes, other schemes, encoded or foreign hosts, and whitespace", () => {
    for (const url of [
      "http://app.home.example@evil.example/",
      "http://app.home.example:443@evil.example/",
      "https://evil.example\\@app.home.example/",
      "https://evil.example#@app.home.example/",
      "https://evil.example?@app.home.example/",
      "https:\\\\app.home.example/",
      "https:/app.home.example/",
      "https:app.home.example/",
      "//app.home.example/",
      "/\\evil.example",
      "https:///app.home.example/",
      "javascript://app.home.example/%0aalert(1)",
      "ftp://app.home.example/",
      "data:text/html,app.home.example",
      "https://%61pp.home.example/",
      "https://app%2ehome.example/",
      "https://xn--pp-kia.home.example/",
      "https://äpp.home.example/",
      "https://app.home.example.evil.example/",
      "https://lab.example/",
      "https://evillab.example/",
      "https://alt.home.example/",
      "https://alt.home.example:8444/",
      "https://app.home.exam\tple/",
      " https://app.home.example/",
      "https://app.home.example/\n",
      "https://[::1]/",
      "https://0x7f.1/",
      "",
    ]) {
      expect([url, isRuleTarget(set, url)]).toEqual([url, false]);
    }
  });

  it("never accepts a URL whose host (as the browser reads it) no rule names", () => {
    const scheme = fc.constantFrom("http", "https", "HTTP", "javascript", "ftp", "");
    const sep = fc.constantFrom("://", ":/", ":\\\\", ":///", "://user@", "://app.home.example@", "://app.home.example:80@", ":");
    const hostArb = fc.constantFrom(
      "app.home.example",
      "x.lab.example",
      "lab.example",
      "alt.home.example",
      "evil.example",
      "app.home.example.evil.example",
      "%61pp.home.example",
      "app%2ehome.example",
      "äpp.home.example",
      "[::1]",
      "0x7f.1",
      "evil.example\\@app.home.example",
    );
    const portArb = fc.constantFrom("", ":443", ":80", ":8443", ":0", ":99999");
    const tail = fc.constantFrom("", "/", "/x", "\\evil.example", "?q", "#f", "@evil.example", "/@evil.example", "#@app.home.example");
    const noise = fc.constantFrom("", "\t", "\n", " ", "\u0000");
    fc.assert(
      fc.property(scheme, sep, hostArb, portArb, tail, noise, fc.nat(40), (s, p, h, pt, t, n, at) => {
        const raw = `${s}${p}${h}${pt}${t}`;
        const url = raw.slice(0, at % (raw.length + 1)) + n + raw.slice(at % (raw.length + 1));
        if (!isRuleTarget(set, url)) return;
        const parsed = new URL(url);
        expect(["http:", "https:"]).toContain(parsed.protocol);
        expect(parsed.username + parsed.password).toBe("");
        expect(/[\s\\%]/.test(url)).toBe(false);
        expect([url, named(parsed.hostname.replace(/\.$/, ""), parsed.port, parsed.protocol)]).toEqual([url, true]);
      }),
      { numRuns: 3000 },
    );
  });
});
