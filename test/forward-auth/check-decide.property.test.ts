import { describe, expect, it } from "bun:test";
import fc from "fast-check";
import { type Caller, decide } from "../../src/forward-auth/check/decide.ts";
import { fromForwardedHeaders, fromOriginalUrl } from "../../src/forward-auth/check/forwarded-request.ts";
import { groupsValue, headerValue, type Identity, identityHeaders } from "../../src/forward-auth/check/identity-headers.ts";
import type { CompiledRule } from "../../src/forward-auth/rules/rules.match.ts";

/*
 * The check's pure parts (issue 45): header values that can never split an answer, the decision's
 * order (rule, bypass, caller, right, second factor), and what the proxies' headers are read as.
 */
const CONTROL = /[\x00-\x1f\x7f-\x9f]/g;

describe("identity header values", () => {
  it("are visible ASCII and spaces only, and decode back to the text without its control characters", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (text) => {
        const value = headerValue(text);
        expect(value).toMatch(/^[\x20-\x7e]*$/);
        expect(() => new Headers({ "remote-name": value })).not.toThrow();
        expect(decodeURIComponent(value)).toBe(text.toWellFormed().replace(CONTROL, "").trim());
      }),
    );
  });

  it("list teams without their commas, groups as team/slug, and admins last", () => {
    expect(
      groupsValue(
        [
          { name: "Media, Inc", groupSlugs: ["ops", "tv"] },
          { name: "Kids\r\n", groupSlugs: [] },
        ],
        true,
      ),
    ).toBe("Media Inc,Media Inc/ops,Media Inc/tv,Kids,admins");
    expect(groupsValue([], false)).toBe("");
  });
});

const identity: Identity = {
  userId: "u1",
  admin: false,
  teamIds: new Set(["t1"]),
  groups: new Set(["t1/ops"]),
  values: { user: "alice", email: "a@example.com", name: "Alice", groups: "T1,T1/ops" },
};
const rule = (fields: Partial<CompiledRule> = {}): CompiledRule => ({
  id: "r1",
  host: "app.example",
  pathPrefixes: [],
  methods: [],
  allow: { everyone: false, teams: [], groups: [], admins: false },
  requireMfa: false,
  bypassPaths: [],
  headers: { user: "Remote-User", email: "Remote-Email", name: "Remote-Name", groups: "Remote-Groups" },
  position: 0,
  ...fields,
});

describe("the decision", () => {
  const session = (mfa: boolean): Caller => ({ kind: "session", identity, mfa });
  const pat: Caller = { kind: "pat", identity };

  it("no rule, then a bypass, then who calls, then whether they may, then the second factor", () => {
    const mfaRule = rule({ requireMfa: true, allow: { everyone: false, teams: ["t2"], groups: [], admins: false } });
    expect(decide({ kind: "none" }, session(true)).kind).toBe("no_rule");
    expect(decide({ kind: "bypass", rule: mfaRule }, null).kind).toBe("bypass");
    expect(decide({ kind: "rule", rule: mfaRule }, null).kind).toBe("sign_in");
    // Not allowed at all: refused without being asked for a factor first.
    expect(decide({ kind: "rule", rule: mfaRule }, session(false)).kind).toBe("deny");
    const open = rule({ requireMfa: true, allow: { everyone: true, teams: [], groups: [], admins: false } });
    expect(decide({ kind: "rule", rule: open }, session(false)).kind).toBe("mfa");
    expect(decide({ kind: "rule", rule: open }, session(true)).kind).toBe("allow");
    expect(decide({ kind: "rule", rule: open }, pat).kind).toBe("deny");
  });

  it("lets through by any one kind of allowance", () => {
    const through = (allow: Partial<CompiledRule["allow"]>, who = identity) =>
      decide(
        { kind: "rule", rule: rule({ allow: { everyone: false, teams: [], groups: [], admins: false, ...allow } }) },
        { kind: "session", identity: who, mfa: false },
      ).kind;
    expect(through({})).toBe("deny");
    expect(through({ everyone: true })).toBe("allow");
    expect(through({ teams: ["t2", "t1"] })).toBe("allow");
    expect(through({ teams: ["t2"] })).toBe("deny");
    expect(through({ groups: ["t1/ops"] })).toBe("allow");
    expect(through({ groups: ["t2/ops"] })).toBe("deny");
    expect(through({ admins: true })).toBe("deny");
    expect(through({ admins: true }, { ...identity, admin: true })).toBe("allow");
  });

  it("answers the headers under the rule's names, never under a name that is no header name", () => {
    const named = rule({ headers: { user: "X-User", email: "X\r\nSet-Cookie: a=b", name: "", groups: "X-Groups" } });
    expect(identityHeaders(named, identity)).toEqual({ "X-User": "alice", "Remote-Email": "a@example.com", "Remote-Name": "Alice", "X-Groups": "T1,T1/ops" });
  });
});

describe("the proxies' headers", () => {
  it("Caddy and Traefik: the URL from X-Forwarded-Proto, -Host and -Uri, the method upper-cased (GET when absent)", () => {
    const headers = new Headers({
      "x-forwarded-proto": "HTTPS",
      "x-forwarded-host": "App.Example:8443",
      "x-forwarded-uri": "/a/../b?c=d",
      "x-forwarded-method": "post",
    });
    expect(fromForwardedHeaders(headers)).toEqual({ url: "https://App.Example:8443/a/../b?c=d", host: "App.Example:8443", path: "/a/../b", method: "POST" });
    headers.delete("x-forwarded-method");
    expect(fromForwardedHeaders(headers).method).toBe("GET");
  });

  it("nginx: X-Original-URL alone decides, a bare origin being its root", () => {
    const headers = new Headers({ "x-original-url": "http://app.example", "x-forwarded-host": "other.example" });
    expect(fromOriginalUrl(headers)).toEqual({ url: "http://app.example/", host: "app.example", path: "/", method: "GET" });
  });

  it("refuse anything that could hide a host or split a header, naming the header", () => {
    const bad: Record<string, string>[] = [
      { "x-forwarded-proto": "https", "x-forwarded-host": "a.example", "x-forwarded-uri": "/\u00e9" },
      { "x-forwarded-proto": "https", "x-forwarded-host": "a.example/b", "x-forwarded-uri": "/" },
      { "x-forwarded-proto": "https", "x-forwarded-host": "a.example", "x-forwarded-uri": "/", "x-forwarded-method": "GE T" },
    ];
    for (const h of bad) expect(() => fromForwardedHeaders(new Headers(h))).toThrow();
    expect(() => fromOriginalUrl(new Headers({ "x-original-url": "https://a.example\\@b.example/" }))).toThrow();
    expect(() => fromOriginalUrl(new Headers({ "x-original-url": "https://a.example/ x" }))).toThrow();
  });
});
