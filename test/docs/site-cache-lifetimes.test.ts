import { beforeAll, describe, expect, it } from "bun:test";
import { updateDocsSettings } from "../../src/docs/settings/docs-settings.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { type SignedUp, signUp } from "../helpers/identity.ts";
import { addSource, articleOf, getPage, type GitHubStandIn, type krokiStandIn, served } from "./docs.fixtures.ts";
import { siteWorld } from "./site.fixtures.ts";

/* Spec 3 section 8: how long the docs site keeps rendered HTML and raw Markdown (DOCS_HTML_TTL_SECONDS). */
const { clock, cast } = siteWorld();
let gh: GitHubStandIn;
let kroki: ReturnType<typeof krokiStandIn>;
let app: TestApp;
let admin: SignedUp;
beforeAll(() => ({ gh, kroki, app, admin } = cast));

describe("spec 3 section 8: cache lifetimes", () => {
  it("rendered HTML lives 60 s by default: a render setting changed shows only once that has passed", async () => {
    await updateDocsSettings(app.ctx, { kroki_url: "" }, { trusted: true });
    gh.repo("acme/ttl-html", { "docs/index.md": "# Flow\n\n```mermaid\ngraph LR; A-->B\n```\n" });
    await addSource(app, admin, { slug: "ttl-html", name: "TTL", kind: "github", full_name: "acme/ttl-html" }, gh.url);
    const diagram = async () => articleOf((await getPage(app, "/docs/ttl-html/")).html).includes('<img class="diagram"');
    expect(await diagram()).toBe(false);
    await updateDocsSettings(app.ctx, { kroki_url: kroki.url }, { trusted: true });
    clock.advance(60_000 - 1);
    expect(await diagram()).toBe(false);
    clock.advance(1);
    expect(await diagram()).toBe(true);
  });

  it("DOCS_HTML_TTL_SECONDS sets Cache-Control's max-age and the rendered HTML's lifetime", async () => {
    const short = await startApp({ env: { DOCS_HTML_TTL_SECONDS: "5" }, overrides: { clock, outbound: { allowLoopback: true } } });
    try {
      const shortAdmin = await signUp(short, "admin");
      gh.repo("acme/ttl-env", { "docs/index.md": "# Flow\n\n```mermaid\ngraph LR; A-->B\n```\n" });
      await addSource(short, shortAdmin, { slug: "ttl-env", name: "TTL", kind: "github", full_name: "acme/ttl-env" }, gh.url);
      const first = await getPage(short, "/docs/ttl-env/");
      expect(first.headers.get("cache-control")).toBe("public, max-age=5");
      expect(first.html).not.toContain('<img class="diagram"');
      await updateDocsSettings(short.ctx, { kroki_url: kroki.url }, { trusted: true });
      clock.advance(5_000 - 1);
      expect((await getPage(short, "/docs/ttl-env/")).html).not.toContain('<img class="diagram"');
      clock.advance(1);
      expect((await getPage(short, "/docs/ttl-env/")).html).toContain('<img class="diagram"');
    } finally {
      await short.stop();
    }
  });

  it("raw Markdown lives 5 minutes: the page is rendered again from the cached text until then, then fetched", async () => {
    gh.repo("acme/ttl-raw", { "docs/index.md": "# Home\n\nFirst text.\n" });
    await addSource(app, admin, { slug: "ttl-raw", name: "TTL", kind: "github", full_name: "acme/ttl-raw" }, gh.url);
    expect((await getPage(app, "/docs/ttl-raw/")).html).toContain("First text.");
    gh.put("acme/ttl-raw", "docs/index.md", "# Home\n\nSecond text.\n");
    const before = gh.hits();
    clock.advance(5 * 60_000 - 1);
    // The HTML (60 s) is long gone: rendered again, from the raw text still cached.
    expect((await getPage(app, "/docs/ttl-raw/")).html).toContain("First text.");
    expect(served(before, gh.hits())).toEqual({});
    clock.advance(1);
    // Five minutes: the text (and the tree, of the same lifetime) are fetched again...
    await getPage(app, "/docs/ttl-raw/");
    expect(served(before, gh.hits())).toEqual({ "tree:acme/ttl-raw": 1, "raw:acme/ttl-raw:docs/index.md": 1 });
    // ...and the page shows it once the HTML rendered a moment before has lived its 60 s.
    clock.advance(60_000);
    expect((await getPage(app, "/docs/ttl-raw/")).html).toContain("Second text.");
    expect(served(before, gh.hits())).toEqual({ "tree:acme/ttl-raw": 1, "raw:acme/ttl-raw:docs/index.md": 1 });
  });
});
