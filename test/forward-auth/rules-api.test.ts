import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { eq } from "drizzle-orm";
import { openStore } from "../../src/boot.ts";
import { MAX_FORWARD_AUTH_RULES } from "../../src/contract/forward-auth.ts";
import { closeDatabase } from "../../src/db/client.ts";
import { withTx } from "../../src/db/tx.ts";
import { currentRules } from "../../src/forward-auth/rules/rules.cache.ts";
import { matchRequest } from "../../src/forward-auth/rules/rules.match.ts";
import { forwardAuthRules } from "../../src/forward-auth/rules/rules.table.ts";
import { tableVersionNow } from "../../src/db/table-version.ts";
import { updateSiteConfig } from "../../src/identity/site-config/site-config.ts";
import { attachToServer, startApp, type TestApp } from "../helpers/app.ts";
import { jarFetch } from "../helpers/cookie-jar.ts";
import { signUp, type SignedUp } from "../helpers/identity.ts";

/*
 * Issue 45: forward auth's rules over the admin API (ARCHITECTURE 4b): `GET|POST
 * /api/oauth/admin/forward-auth/rules`, `PATCH|DELETE .../:id`, and the rules every process keeps in
 * memory, which follow each change at once, whoever makes it.
 */
const RULES = "/api/oauth/admin/forward-auth/rules";

let app: TestApp;
let admin: SignedUp;
let user: SignedUp;
let teamId: string;
beforeAll(async () => {
  app = await startApp();
  admin = await signUp(app, "admin");
  user = await signUp(app, "plain");
  teamId = (await admin.browser.json("POST", "/api/oauth/me/teams", { name: "Media" })).data.team.id;
  expect((await admin.browser.json("POST", `/api/oauth/me/teams/${teamId}/groups`, { slug: "editors", name: "Editors" })).status).toBe(201);
});
afterAll(() => app.stop());

const list = async () => (await admin.browser.json("GET", RULES)).data.rules as { id: string; host: string; position: number }[];
const create = async (body: Record<string, unknown>) => {
  const res = await admin.browser.json("POST", RULES, body);
  expect([res.status, res.data.error_description]).toEqual([201, undefined]);
  return res.data.rule as { id: string; host: string; position: number };
};
const clear = async () => {
  for (const r of await list()) await admin.browser.json("DELETE", `${RULES}/${r.id}`);
};
const hosts = async () => (await list()).map((r) => `${r.position}:${r.host}`);

describe("creating, reading, changing and deleting rules", () => {
  it("creates a rule with every field answered, defaults filled in, and lists it", async () => {
    await clear();
    const created = await admin.browser.json("POST", RULES, { host: "Media.Home.Example.", allow: { everyone: true } });
    expect(created.status).toBe(201);
    expect(created.data.rule).toEqual({
      id: expect.any(String),
      host: "media.home.example",
      path_prefixes: [],
      methods: [],
      allow: { everyone: true, teams: [], groups: [], admins: false },
      require_mfa: false,
      bypass_paths: [],
      headers: { user: "Remote-User", email: "Remote-Email", name: "Remote-Name", groups: "Remote-Groups" },
      position: 0,
      created_at: expect.any(Number),
      updated_at: expect.any(Number),
    });
    expect((await admin.browser.json("GET", RULES)).data).toEqual({ rules: [created.data.rule] });
  });

  it("keeps every field in its stored form: paths read strictly, methods upper-cased, teams and groups that exist", async () => {
    await clear();
    const rule = await admin.browser.json("POST", RULES, {
      host: "*.lab.example:8443",
      path_prefixes: ["/media/", "/a/./b/../c", "/%7Euser", "/media"],
      methods: ["get", "POST", "get"],
      allow: { teams: [teamId], groups: [`${teamId}/editors`], admins: true },
      require_mfa: true,
      bypass_paths: ["/api"],
      headers: { user: "X-User", email: null, name: "", groups: "X-Groups" },
    });
    expect(rule.status).toBe(201);
    expect(rule.data.rule).toMatchObject({
      host: "*.lab.example:8443",
      path_prefixes: ["/media", "/a/c", "/~user"],
      methods: ["GET", "POST"],
      allow: { everyone: false, teams: [teamId], groups: [`${teamId}/editors`], admins: true },
      require_mfa: true,
      bypass_paths: ["/api"],
      headers: { user: "X-User", email: "Remote-Email", name: "Remote-Name", groups: "X-Groups" },
    });
  });

  it("changes only the fields a PATCH gives, each replaced whole, and deletes", async () => {
    await clear();
    const rule = await create({ host: "app.example", methods: ["GET"], allow: { everyone: true }, headers: { user: "X-User" } });
    const patched = await admin.browser.json("PATCH", `${RULES}/${rule.id}`, { require_mfa: true, allow: { admins: true } });
    expect(patched.status).toBe(200);
    expect(patched.data.rule).toMatchObject({
      host: "app.example",
      methods: ["GET"],
      require_mfa: true,
      allow: { everyone: false, teams: [], groups: [], admins: true },
      headers: { user: "X-User" },
    });
    expect(patched.data.rule.updated_at).toBeGreaterThanOrEqual(patched.data.rule.created_at);
    expect(await admin.browser.json("DELETE", `${RULES}/${rule.id}`)).toMatchObject({ status: 200, data: { ok: true } });
    expect(await list()).toEqual([]);
  });

  it("answers 404 not_found for an unknown id", async () => {
    for (const [method, body] of [
      ["PATCH", { require_mfa: true }],
      ["DELETE", undefined],
    ] as const) {
      const res = await admin.browser.json(method, `${RULES}/no-such-rule`, body);
      expect([method, res.status, res.data.error]).toEqual([method, 404, "not_found"]);
    }
  });

  it("records who created, changed and deleted rules in the audit log", async () => {
    const rule = await create({ host: "audited.example", allow: {} });
    await admin.browser.json("PATCH", `${RULES}/${rule.id}`, { methods: ["GET"] });
    await admin.browser.json("DELETE", `${RULES}/${rule.id}`);
    const entries = (await admin.browser.json("GET", "/api/oauth/admin/audit")).data.entries as { action: string; actor_user_id: string; details: unknown }[];
    const ours = entries.filter((e) => (e.details as { id?: string }).id === rule.id);
    expect(ours.map((e) => [e.action, e.actor_user_id])).toEqual([
      ["forward_auth.rule_deleted", admin.user.id],
      ["forward_auth.rule_updated", admin.user.id],
      ["forward_auth.rule_created", admin.user.id],
    ]);
    expect(ours[1]?.details).toEqual({ id: rule.id, host: "audited.example", changed: ["methods"] });
  });
});

describe("order: the first matching rule wins", () => {
  it("adds a rule last, or at the position given, moving the rest down; a move or delete renumbers from 0", async () => {
    await clear();
    for (const host of ["a.example", "b.example", "c.example"]) await create({ host, allow: {} });
    expect(await hosts()).toEqual(["0:a.example", "1:b.example", "2:c.example"]);
    const d = await create({ host: "d.example", allow: {}, position: 0 });
    expect(d.position).toBe(0);
    expect(await hosts()).toEqual(["0:d.example", "1:a.example", "2:b.example", "3:c.example"]);
    await create({ host: "e.example", allow: {}, position: 99 });
    expect(await hosts()).toEqual(["0:d.example", "1:a.example", "2:b.example", "3:c.example", "4:e.example"]);
    const [, , , c] = await list();
    const moved = await admin.browser.json("PATCH", `${RULES}/${c?.id}`, { position: 1 });
    expect(moved.data.rule.position).toBe(1);
    expect(await hosts()).toEqual(["0:d.example", "1:c.example", "2:a.example", "3:b.example", "4:e.example"]);
    await admin.browser.json("PATCH", `${RULES}/${c?.id}`, { position: 1000 });
    expect(await hosts()).toEqual(["0:d.example", "1:a.example", "2:b.example", "3:e.example", "4:c.example"]);
    await admin.browser.json("DELETE", `${RULES}/${d.id}`);
    expect(await hosts()).toEqual(["0:a.example", "1:b.example", "2:e.example", "3:c.example"]);
  });

  it("matches in that order from memory", async () => {
    await clear();
    const narrow = await create({ host: "app.example", path_prefixes: ["/admin"], allow: { admins: true } });
    const wide = await create({ host: "*.example", allow: { everyone: true }, bypass_paths: ["/api"] });
    const at = async (host: string, path: string) => {
      const m = matchRequest(await currentRules(app.ctx), { host, path, method: "GET" });
      return m.kind === "none" ? "none" : `${m.kind}:${m.rule.id}`;
    };
    expect(await at("app.example", "/admin/x")).toBe(`rule:${narrow.id}`);
    expect(await at("app.example", "/public/../admin")).toBe(`rule:${narrow.id}`);
    expect(await at("app.example", "/api/v1")).toBe(`bypass:${wide.id}`);
    expect(await at("example", "/")).toBe("none");
    await admin.browser.json("PATCH", `${RULES}/${wide.id}`, { position: 0 });
    expect(await at("app.example", "/admin/x")).toBe(`rule:${wide.id}`);
  });
});

describe("bad rules: 400 invalid_rule naming the field, and nothing changes", () => {
  it("refuses each bad value with a clear description", async () => {
    await clear();
    const kept = await create({ host: "kept.example", allow: { everyone: true } });
    const before = await admin.browser.json("GET", RULES);
    const version = await tableVersionNow(app.ctx.db, "forward_auth_rules");
    const cases: [Record<string, unknown>, string][] = [
      [{ host: "", allow: {} }, "host: "],
      [{ host: "https://app.example", allow: {} }, "host: give the host name alone, without a scheme"],
      [{ host: "app.example/path", allow: {} }, "host: give the host name alone, without a path"],
      [{ host: "user@app.example", allow: {} }, "host: give the host name alone, without user info"],
      [{ host: "äpp.example", allow: {} }, "host: write an internationalized name in punycode"],
      [{ host: "a.*.example", allow: {} }, "host: a wildcard can only be a leading *."],
      [{ host: "*example", allow: {} }, "host: a wildcard can only be a leading *."],
      [{ host: "app.example:0", allow: {} }, "host: a host name is labels"],
      [{ host: "app.example:70000", allow: {} }, "host: a host name is labels"],
      [{ host: "app..example", allow: {} }, "host: a host name is labels"],
      [{ host: "[::1]", allow: {} }, "host: an IP address in brackets"],
      [{ host: "a.example", path_prefixes: ["media"], allow: {} }, "path_prefixes: each path starts with /"],
      [{ host: "a.example", path_prefixes: ["/a?b"], allow: {} }, "path_prefixes: a path has no query"],
      [{ host: "a.example", path_prefixes: ["/a b"], allow: {} }, "path_prefixes: a path has no spaces"],
      [{ host: "a.example", path_prefixes: ["/a%zz"], allow: {} }, "path_prefixes: a % must start an escape"],
      [{ host: "a.example", path_prefixes: ["/a//b"], allow: {} }, "path_prefixes: a path has no empty segment"],
      [{ host: "a.example", bypass_paths: ["/a\\b"], allow: {} }, "bypass_paths: a path has no query"],
      [{ host: "a.example", methods: ["GE T"], allow: {} }, "methods: each method is a word"],
      [{ host: "a.example", allow: { teams: ["no-such-team"] } }, 'allow.teams: no team has the id "no-such-team"'],
      [{ host: "a.example", allow: { groups: [`${teamId}/nobody`] } }, `allow.groups: no group "${teamId}/nobody"`],
      [{ host: "a.example", allow: { groups: ["editors"] } }, 'allow.groups: "editors" is not <team id>/<group slug>'],
      [{ host: "a.example", allow: {}, headers: { user: "X User" } }, "headers.user: a header name is"],
      [{ host: "a.example", allow: {}, headers: { email: "Set-Cookie" } }, "headers.email: Set-Cookie is a header HTTP or the proxy uses itself"],
      [{ host: "a.example", allow: {}, headers: { name: "X-Forwarded-User" } }, "headers.name: X-Forwarded-User is a header"],
      [{ host: "a.example", allow: {}, headers: { user: "Remote-Email" } }, "headers: the four identity headers need four different names"],
      [{ host: "a.example", allow: {}, position: -1 }, "position: a position counts from 0"],
    ];
    for (const [body, description] of cases) {
      const res = await admin.browser.json("POST", RULES, body);
      expect({ body, status: res.status, error: res.data.error, starts: String(res.data.error_description).startsWith(description) }).toEqual({
        body,
        status: 400,
        error: "invalid_rule",
        starts: true,
      });
      const patched = await admin.browser.json("PATCH", `${RULES}/${kept.id}`, body);
      expect({ body, status: patched.status, error: patched.data.error }).toEqual({ body, status: 400, error: "invalid_rule" });
    }
    expect((await admin.browser.json("GET", RULES)).data).toEqual(before.data);
    expect(await tableVersionNow(app.ctx.db, "forward_auth_rules")).toBe(version);
  });

  it("a body of the wrong shape is a 400 naming the field, and changes nothing", async () => {
    const before = await admin.browser.json("GET", RULES);
    for (const [body, field] of [
      [{ allow: {} }, "host"],
      [{ host: "a.example" }, "allow"],
      [{ host: 5, allow: {} }, "host"],
      [{ host: "a.example", allow: { everyone: "yes" } }, "allow.everyone"],
      [{ host: "a.example", allow: {}, position: 1.5 }, "position"],
      ["not json", "JSON"],
    ] as const) {
      const res = await admin.browser.json("POST", RULES, body);
      expect({ body, status: res.status, error: res.data.error, named: String(res.data.error_description).includes(field) }).toEqual({
        body,
        status: 400,
        error: "invalid_request",
        named: true,
      });
    }
    expect((await admin.browser.json("GET", RULES)).data).toEqual(before.data);
  });
});

describe("how many rules", () => {
  it("keeps up to 10,000 rules, all matched from memory, and refuses one more with 409", async () => {
    await clear();
    const now = Date.now();
    const rows = Array.from({ length: MAX_FORWARD_AUTH_RULES }, (_, i) => ({
      id: `bulk-${i}`,
      host: `app${i}.bulk.example`,
      pathPrefixes: [],
      methods: [],
      allow: { everyone: true, teams: [], groups: [], admins: false },
      requireMfa: false,
      bypassPaths: [],
      headers: {},
      position: i,
      createdAt: now,
      updatedAt: now,
    }));
    await withTx(app.ctx.db, async () => {
      for (let i = 0; i < rows.length; i += 500)
        await app.ctx.db
          .insert(forwardAuthRules)
          .values(rows.slice(i, i + 500))
          .run();
    });
    try {
      expect(matchRequest(await currentRules(app.ctx), { host: "app9999.bulk.example", path: "/", method: "GET" })).toMatchObject({
        kind: "rule",
        rule: { id: "bulk-9999" },
      });
      const refused = await admin.browser.json("POST", RULES, { host: "one-more.example", allow: {} });
      expect([refused.status, refused.data.error]).toEqual([409, "conflict"]);
    } finally {
      await app.ctx.db.delete(forwardAuthRules).run();
    }
    expect(await list()).toEqual([]);
  });
});

describe("who may manage rules", () => {
  it("admins only: 401 without credentials, 403 for others, a token needs admin:config:read / :write", async () => {
    expect((await jarFetch(app.url).json("GET", RULES)).status).toBe(401);
    for (const [method, path, body] of [
      ["GET", RULES, undefined],
      ["POST", RULES, { host: "x.example", allow: {} }],
      ["PATCH", `${RULES}/x`, { methods: [] }],
      ["DELETE", `${RULES}/x`, undefined],
    ] as const) {
      const res = await user.browser.json(method, path, body);
      expect([method, res.status]).toEqual([method, 403]);
    }
    // Admin tokens otherwise need a sign-in with a second factor, which is beside the point here.
    await updateSiteConfig(app.ctx, { admin_requires_mfa: false });
    const token = async (scopes: string[]) =>
      (await admin.browser.json("POST", "/api/oauth/me/tokens", { name: scopes.join(" "), scopes })).data.secret as string;
    const reader = { authorization: `Bearer ${await token(["admin:config:read"])}`, cookie: "" };
    expect((await admin.browser.json("GET", RULES, undefined, reader)).status).toBe(200);
    const write = await admin.browser.json("POST", RULES, { host: "x.example", allow: {} }, reader);
    expect([write.status, write.data.error]).toEqual([403, "insufficient_scope"]);
    const writer = { authorization: `Bearer ${await token(["admin:config:write"])}`, cookie: "" };
    const made = await admin.browser.json("POST", RULES, { host: "token.example", allow: {} }, writer);
    expect(made.status).toBe(201);
    await admin.browser.json("DELETE", `${RULES}/${made.data.rule.id}`);
  });

  it("refuses a cookie write without the issuer's Origin, and changes nothing", async () => {
    const before = await admin.browser.json("GET", RULES);
    const cookie = [...admin.browser.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    for (const origin of [null, "https://evil.example", `${app.url}.evil.example`]) {
      const res = await fetch(`${app.url}${RULES}`, {
        method: "POST",
        headers: { cookie, "content-type": "application/json", ...(origin === null ? {} : { origin }) },
        body: JSON.stringify({ host: "csrf.example", allow: { everyone: true } }),
      });
      expect({ origin, status: res.status }).toEqual({ origin, status: 403 });
    }
    expect((await admin.browser.json("GET", RULES)).data).toEqual(before.data);
  });
});

describe("the rules in memory follow every change at once", () => {
  const hostsInMemory = async (ctx: TestApp["ctx"], host: string) => matchRequest(await currentRules(ctx), { host, path: "/", method: "GET" }).kind;

  it("sees a change through the API, and one written by another connection to the same file (another worker, the CLI)", async () => {
    await clear();
    expect(await hostsInMemory(app.ctx, "fresh.example")).toBe("none");
    const rule = await create({ host: "fresh.example", allow: { everyone: true } });
    expect(await hostsInMemory(app.ctx, "fresh.example")).toBe("rule");
    const same = await currentRules(app.ctx);
    expect(await currentRules(app.ctx)).toBe(same); // nothing changed: not compiled again

    const other = await openStore(app.ctx.config, false);
    try {
      await other.update(forwardAuthRules).set({ host: "moved.example" }).where(eq(forwardAuthRules.id, rule.id)).run();
      expect(await hostsInMemory(app.ctx, "fresh.example")).toBe("none");
      expect(await hostsInMemory(app.ctx, "moved.example")).toBe("rule");
      await other.delete(forwardAuthRules).where(eq(forwardAuthRules.id, rule.id)).run();
      expect(await hostsInMemory(app.ctx, "moved.example")).toBe("none");
    } finally {
      closeDatabase(other);
    }
  });

  it("a second process's context on the same file sees what the API wrote", async () => {
    const second = await attachToServer(app.url, app.dataDir);
    try {
      expect(await hostsInMemory(second.ctx, "second.example")).toBe("none");
      const rule = await create({ host: "second.example", allow: { everyone: true } });
      expect(await hostsInMemory(second.ctx, "second.example")).toBe("rule");
      await admin.browser.json("PATCH", `${RULES}/${rule.id}`, { methods: ["POST"] });
      expect(await hostsInMemory(second.ctx, "second.example")).toBe("none");
    } finally {
      await second.stop();
    }
  });
});
