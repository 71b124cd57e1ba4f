import { beforeAll, describe, expect, it } from "bun:test";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { docsSources } from "../../src/docs/sources/sources.table.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { type SignedUp, signUp } from "../helpers/identity.ts";
import { tempDir } from "../helpers/temp.ts";
import { addSource, articleOf, deliver, getPage, type GitHubStandIn, pushPayload } from "./docs.fixtures.ts";
import { SECRET, siteWorld } from "./site.fixtures.ts";

/* The docs admin API (/api/docs): sources, their cache and deliveries, and the renderers' settings; site admins only. */
const { clock, cast } = siteWorld();
let gh: GitHubStandIn;
let app: TestApp;
let admin: SignedUp;
let member: SignedUp;
beforeAll(() => ({ gh, app, admin } = cast));

describe("the admin API (/api/docs)", () => {
  beforeAll(async () => {
    member = await signUp(app, "member");
  });
  /** A PATCH of a source the test pointed at the stand-in: checked as an https source, then pointed back. */
  const patchSource = async (id: string, body: Record<string, unknown>) => {
    await app.ctx.db.update(docsSources).set({ apiBase: "https://example.invalid" }).where(eq(docsSources.id, id)).run();
    const res = await admin.browser.json("PATCH", `/api/docs/sources/${id}`, body);
    await app.ctx.db.update(docsSources).set({ apiBase: gh.url }).where(eq(docsSources.id, id)).run();
    return res;
  };
  const sourcesOf = async () => (await admin.browser.json("GET", "/api/docs/sources")).data;

  it("is for site admins only: 403 for a member, 401 without a session", async () => {
    const calls: [string, string, unknown?][] = [
      ["GET", "/api/docs/sources"],
      ["POST", "/api/docs/sources", { slug: "x", name: "X", kind: "github", full_name: "a/b" }],
      ["PATCH", "/api/docs/sources/whatever", { name: "Y" }],
      ["DELETE", "/api/docs/sources/whatever"],
      ["POST", "/api/docs/sources/whatever/refresh"],
      ["GET", "/api/docs/settings"],
      ["PATCH", "/api/docs/settings", { kroki_url: "" }],
    ];
    for (const [method, path, body] of calls) {
      const res = await member.browser.json(method, path, body);
      expect({ method, path, status: res.status, error: res.data.error }).toEqual({ method, path, status: 403, error: "forbidden" });
      expect({ method, path, status: (await app.client().json(method, path, body)).status }).toEqual({ method, path, status: 401 });
    }
    expect((await member.browser.json("GET", "/api/docs/sources")).data).not.toHaveProperty("sources");
  });

  it("adds a source (201), answering the token only as token_set; the token goes to the hosting service", async () => {
    gh.repo("acme/private", { "docs/index.md": "# Private\n" });
    const res = await admin.browser.json("POST", "/api/docs/sources", {
      slug: "private",
      name: "Private docs",
      kind: "github",
      full_name: "Acme/Private",
      branch: "main",
      docs_root: "/docs/",
      api_base: "https://ghe.example.invalid/api/v3/",
      token: "ghp_topsecret123",
    });
    expect(res.status).toBe(201);
    expect(res.data.source).toEqual({
      id: expect.any(String),
      slug: "private",
      name: "Private docs",
      kind: "github",
      full_name: "acme/private",
      branch: "main",
      docs_root: "docs",
      api_base: "https://ghe.example.invalid/api/v3",
      token_set: true,
      local_path: null,
      locales: [],
      default_locale: "en",
      url: `${app.url}/docs/private`,
      created_at: clock.now(),
      hidden: false,
    });
    const listed = await admin.browser.json("GET", "/api/docs/sources");
    expect(JSON.stringify(listed.data)).not.toContain("ghp_topsecret123");
    expect(JSON.stringify(res.data)).not.toContain("ghp_topsecret123");
    const id = res.data.source.id as string;
    expect(listed.data.sources.find((s: { id: string }) => s.id === id).token_set).toBe(true);
    // Pointed at the stand-in, the pages are read with the token.
    await app.ctx.db.update(docsSources).set({ apiBase: gh.url }).where(eq(docsSources.id, id)).run();
    const from = gh.requests.length;
    expect((await getPage(app, "/docs/private/")).status).toBe(200);
    const sent = gh.requests.slice(from);
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.every((r) => r.authorization === "Bearer ghp_topsecret123")).toBe(true);
    // "" clears it.
    const cleared = await patchSource(id, { token: "" });
    expect(cleared.data.source.token_set).toBe(false);
    const after = gh.requests.length;
    expect((await getPage(app, "/docs/private/")).status).toBe(200);
    expect(gh.requests.slice(after).every((r) => r.authorization === null)).toBe(true);
  });

  it("refuses invalid sources with 400 (and a taken slug with 409)", async () => {
    const valid = { slug: "valid", name: "Valid", kind: "github", full_name: "acme/valid" };
    const invalid: Record<string, unknown>[] = [
      { ...valid, slug: "Not a slug!" },
      { ...valid, slug: "-starts-with-dash" },
      { ...valid, slug: "x".repeat(41) },
      { ...valid, name: "" },
      { ...valid, name: "   " },
      { ...valid, kind: "gitlab" },
      { ...valid, full_name: "no-slash" },
      { ...valid, full_name: "a/b/c" },
      { ...valid, branch: "../main" },
      { ...valid, branch: "a..b" },
      { ...valid, docs_root: "../outside" },
      { ...valid, docs_root: "docs/./x" },
      { ...valid, api_base: "http://api.github.com" },
      { ...valid, api_base: "https://user:pass@api.github.com" },
      { ...valid, api_base: "not a url" },
      { ...valid, locales: ["english"] },
      { ...valid, locales: ["en", "fr"], default_locale: "de" },
      { ...valid, slug: 5 },
      { ...valid, locales: "en" },
      { slug: "local-bad", name: "Local", kind: "local", local_path: "relative/path" },
      { slug: "local-bad", name: "Local", kind: "local", local_path: "/no/such/folder/anywhere" },
      { slug: "local-bad", name: "Local", kind: "local", local_path: join(tempDir(), "missing") },
    ];
    for (const body of invalid) {
      const res = await admin.browser.json("POST", "/api/docs/sources", body);
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
    }
    expect((await admin.browser.json("POST", "/api/docs/sources", "{not json", {})).status).toBe(400);
    expect((await admin.browser.json("POST", "/api/docs/sources", valid)).status).toBe(201);
    const taken = await admin.browser.json("POST", "/api/docs/sources", { ...valid, full_name: "acme/other" });
    expect(taken.status).toBe(409);
    expect((await sourcesOf()).sources.filter((s: { slug: string }) => s.slug === "valid")).toHaveLength(1);
  });

  it("changes a source (PATCH): checked like a new one, its cache dropped, the pages read from the new branch", async () => {
    gh.repo("acme/branches", { "docs/index.md": "# Main\n\nOn main.\n" });
    const source = await addSource(app, admin, { slug: "branches", name: "Branches", kind: "github", full_name: "acme/branches" }, gh.url);
    expect(articleOf((await getPage(app, "/docs/branches/")).html)).toContain("On main.");
    expect((await patchSource(source.id, { branch: "a..b" })).status).toBe(400);
    expect((await patchSource(source.id, { kind: "svn" })).status).toBe(400);
    expect((await patchSource(source.id, { api_base: "http://api.github.com" })).status).toBe(400);
    expect((await admin.browser.json("PATCH", "/api/docs/sources/nosuchid", { name: "X" })).status).toBe(404);
    gh.repo("acme/branches", { "docs/index.md": "# Next\n\nOn next.\n" }, "next");
    const res = await patchSource(source.id, { branch: "next", name: "Branches (next)" });
    expect(res.status).toBe(200);
    expect(res.data.source).toMatchObject({ id: source.id, branch: "next", name: "Branches (next)", slug: "branches", full_name: "acme/branches" });
    expect((await sourcesOf()).sources.find((s: { id: string }) => s.id === source.id).cache).toEqual([]);
    expect(articleOf((await getPage(app, "/docs/branches/")).html)).toContain("On next.");
  });

  it("refreshes a source: its whole cache dropped ({dropped}), the pages fetched again", async () => {
    gh.repo("acme/refresh", { "docs/index.md": "# Refresh\n\nBefore.\n", "docs/other.md": "# Other\n" });
    const source = await addSource(app, admin, { slug: "refresh", name: "Refresh", kind: "github", full_name: "acme/refresh" }, gh.url);
    await getPage(app, "/docs/refresh/");
    const cache = (await sourcesOf()).sources.find((s: { id: string }) => s.id === source.id).cache as { kind: string; entries: number; bytes: number }[];
    // One page read: the tree, both texts and their sidebar facts (the sidebar reads titles), one page's metadata and HTML, one sidebar (one folder).
    expect(cache.map(({ kind, entries }) => ({ kind, entries })).sort((a, b) => a.kind.localeCompare(b.kind))).toEqual([
      { kind: "facts", entries: 2 },
      { kind: "html", entries: 1 },
      { kind: "meta", entries: 1 },
      { kind: "raw", entries: 2 },
      { kind: "sidebar", entries: 1 },
      { kind: "tree", entries: 1 },
    ]);
    for (const entry of cache) expect(entry.bytes).toBeGreaterThan(0);
    gh.put("acme/refresh", "docs/index.md", "# Refresh\n\nAfter.\n");
    expect(articleOf((await getPage(app, "/docs/refresh/")).html)).toContain("Before.");
    const res = await admin.browser.json("POST", `/api/docs/sources/${source.id}/refresh`);
    expect(res.status).toBe(200);
    expect(res.data).toEqual({ dropped: 8 });
    expect(articleOf((await getPage(app, "/docs/refresh/")).html)).toContain("After.");
    expect((await admin.browser.json("POST", "/api/docs/sources/nosuchid/refresh")).status).toBe(404);
  });

  it("deletes a source: its pages are gone, a second delete is 404", async () => {
    gh.repo("acme/gone", { "docs/index.md": "# Gone\n" });
    const source = await addSource(app, admin, { slug: "gone", name: "Gone", kind: "github", full_name: "acme/gone" }, gh.url);
    expect((await getPage(app, "/docs/gone/")).status).toBe(200);
    const res = await admin.browser.json("DELETE", `/api/docs/sources/${source.id}`);
    expect(res.status).toBe(200);
    expect(res.data).toEqual({ ok: true });
    expect((await getPage(app, "/docs/gone/")).status).toBe(404);
    expect((await sourcesOf()).sources.some((s: { id: string }) => s.id === source.id)).toBe(false);
    expect((await admin.browser.json("DELETE", `/api/docs/sources/${source.id}`)).status).toBe(404);
    // Its repository is no longer configured.
    expect((await deliver(app, "push", pushPayload("acme/gone", [{ modified: ["docs/index.md"] }]), { secret: SECRET })).data).toBe("repo not configured");
  });

  it("shows the webhook URL, whether a secret is configured, and the last deliveries with their results", async () => {
    gh.repo("acme/hooked", { "docs/index.md": "# Hooked\n" });
    await addSource(app, admin, { slug: "hooked", name: "Hooked", kind: "github", full_name: "acme/hooked" }, gh.url);
    const pushed = crypto.randomUUID();
    const unknown = crypto.randomUUID();
    const pinged = crypto.randomUUID();
    await deliver(app, "push", pushPayload("acme/hooked", [{ modified: ["docs/index.md", "docs/a.md"] }]), { secret: SECRET, delivery: pushed });
    await deliver(app, "push", pushPayload("acme/nobody", [{ modified: ["docs/index.md"] }]), { secret: SECRET, delivery: unknown });
    await deliver(app, "ping", { zen: "Keep it logically awesome.", hook_id: 1 }, { secret: SECRET, delivery: pinged });
    // Refused: not recorded.
    const refused = crypto.randomUUID();
    await deliver(app, "push", pushPayload("acme/hooked", []), { sign: "sha256=00", delivery: refused });
    const data = await sourcesOf();
    expect(data.webhook).toEqual({ url: `${app.url}/api/webhook`, secret_configured: true });
    const byId = (id: string) => data.deliveries.find((d: { id: string }) => d.id === id);
    expect(byId(pushed)).toEqual({
      id: pushed,
      event: "push",
      repository: "acme/hooked",
      received_at: clock.now(),
      result: "hooked: 2 file(s)",
      invalidated: 2,
    });
    expect(byId(unknown)).toEqual({
      id: unknown,
      event: "push",
      repository: "acme/nobody",
      received_at: clock.now(),
      result: "repo not configured",
      invalidated: 0,
    });
    expect(byId(pinged)).toEqual({ id: pinged, event: "ping", repository: null, received_at: clock.now(), result: "pong", invalidated: 0 });
    expect(byId(refused)).toBeUndefined();
  });

  it("says secret_configured false on an instance without DOCS_WEBHOOK_SECRET", async () => {
    const open = await startApp({ overrides: { clock } });
    try {
      const openAdmin = await signUp(open, "admin");
      const res = await openAdmin.browser.json("GET", "/api/docs/sources");
      // A fresh instance's one source is Cairn's own guide.
      expect(res.data).toEqual({
        sources: [expect.objectContaining({ kind: "builtin", hidden: false })],
        webhook: { url: `${open.url}/api/webhook`, secret_configured: false },
        deliveries: [],
      });
    } finally {
      await open.stop();
    }
  });

  it("reads and changes the renderers' settings: https URLs only, the translation key only as translate_key_set", async () => {
    const first = await admin.browser.json("GET", "/api/docs/settings");
    expect(first.status).toBe(200);
    expect(Object.keys(first.data.settings).sort()).toEqual(["kroki_url", "translate_key_set", "translate_locales", "translate_url"]);
    const res = await admin.browser.json("PATCH", "/api/docs/settings", {
      kroki_url: "https://kroki.example.invalid/",
      translate_url: "https://translate.example.invalid",
      translate_key: "lt-secret-key",
      translate_locales: ["de", "pt-BR", "de"],
    });
    expect(res.status).toBe(200);
    expect(res.data).toEqual({
      settings: {
        kroki_url: "https://kroki.example.invalid",
        translate_url: "https://translate.example.invalid",
        translate_locales: ["de", "pt-BR"],
        translate_key_set: true,
      },
    });
    expect(JSON.stringify((await admin.browser.json("GET", "/api/docs/settings")).data)).not.toContain("lt-secret-key");
    for (const body of [
      { kroki_url: "http://kroki.example.invalid" },
      { kroki_url: "javascript:alert(1)" },
      { translate_url: "ftp://translate.example.invalid" },
      { translate_locales: ["not a locale"] },
      { translate_locales: "de" },
      { kroki_url: 42 },
    ]) {
      const bad = await admin.browser.json("PATCH", "/api/docs/settings", body);
      expect({ body, status: bad.status }).toEqual({ body, status: 400 });
    }
    const cleared = await admin.browser.json("PATCH", "/api/docs/settings", { translate_url: "", translate_key: "", translate_locales: [], kroki_url: "" });
    expect(cleared.data).toEqual({ settings: { kroki_url: "", translate_url: "", translate_locales: [], translate_key_set: false } });
  });
});
