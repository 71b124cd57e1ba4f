import { beforeAll, describe, expect, it } from "bun:test";
import type { TestApp } from "../helpers/app.ts";
import type { SignedUp } from "../helpers/identity.ts";
import { addSource, getPage, type GitHubStandIn } from "./docs.fixtures.ts";
import { siteWorld } from "./site.fixtures.ts";

/* Spec 3 section 8: the docs site's search (FTS5), where any query is plain words. */
const { cast } = siteWorld();
let gh: GitHubStandIn;
let app: TestApp;
let admin: SignedUp;
beforeAll(() => ({ gh, app, admin } = cast));

describe("search (spec 3 section 8: FTS5)", () => {
  beforeAll(async () => {
    gh.repo("acme/search", {
      "docs/animals.md": "# Animals\n\nThe zebra and the quokka meet at the café.\n\nAn inequality: x < y & z, said the zebra.\n",
      "docs/plants.md": "# Plants\n\nThe baobab grows slowly.\n",
      "docs/tokyo.md": "# Cities\n\n東京 is a city.\n",
      "docs/long.md": `# Long\n\n${"lorem ipsum dolor sit amet ".repeat(30)}the okapi hides ${"lorem ipsum ".repeat(30)}\n`,
    });
    await addSource(app, admin, { slug: "search", name: "Search", kind: "github", full_name: "acme/search" }, gh.url);
  });
  const search = async (q: string) => getPage(app, `/docs/search/_search?q=${encodeURIComponent(q)}`);
  const results = (html: string) => [...html.matchAll(/<li><a href="([^"]+)">[^<]*<\/a><p>/g)].map((m) => m[1]);

  it("lists matching pages with a snippet marking the words, the text escaped", async () => {
    const res = await search("zebra");
    expect(res.status).toBe(200);
    expect(results(res.html)).toEqual(["/docs/search/animals"]);
    expect(res.html).toContain("The <mark>zebra</mark> and the quokka meet at the café.");
    expect((await search("inequality")).html).toContain("An <mark>inequality</mark>: x &lt; y &amp; z, said the zebra.");
    expect(res.html).toContain('<input type="search" name="q"');
    expect(res.html).toContain('value="zebra"');
  });

  it("cuts a long page's text to a few words around the match, with … where the text goes on", async () => {
    const res = await search("okapi");
    expect(results(res.html)).toEqual(["/docs/search/long"]);
    const snippet = /<a href="\/docs\/search\/long">Long<\/a><p>([^<]*<mark>okapi<\/mark>[^<]*)<\/p>/.exec(res.html)?.[1] ?? "";
    expect(snippet).toMatch(/^….* the <mark>okapi<\/mark> hides .*…$/);
    expect(snippet.split(/\s+/).length).toBeLessThanOrEqual(16);
  });

  it("matches the last word as a prefix, and words without their accents", async () => {
    expect(results((await search("quok")).html)).toEqual(["/docs/search/animals"]);
    expect(results((await search("cafe")).html)).toEqual(["/docs/search/animals"]);
    expect(results((await search("baobab slow")).html)).toEqual(["/docs/search/plants"]);
    expect(results((await search("東京")).html)).toEqual(["/docs/search/tokyo"]);
  });

  it("says so when nothing matches, and asks for words when the query has none", async () => {
    expect((await search("unicorn")).html).toContain("No page matches <strong>unicorn</strong>.");
    expect((await search("")).html).toContain("Type a word or two to search.");
  });

  it("takes FTS5 syntax as plain words: quotes, parentheses, NEAR, *, column filters, unicode; never a 5xx", async () => {
    const queries = [
      '"',
      '"zebra',
      "zebra)",
      "(zebra",
      "NEAR(zebra quokka)",
      "NEAR(zebra quokka, 2)",
      "*",
      "zebra*",
      "-zebra",
      "title:zebra",
      "^zebra",
      "zebra AND",
      "OR",
      "NOT",
      "{title body}: zebra",
      "zebra + quokka",
      "'; DROP TABLE docs_search; --",
      "\\",
      "🦓",
      "zé\u0301bra",
      "\u0000zebra",
      "x".repeat(1000),
      Array.from({ length: 40 }, (_, i) => `w${i}`).join(" "),
    ];
    for (const q of queries) {
      const res = await search(q);
      expect({ q, status: res.status, type: res.headers.get("content-type") }).toEqual({ q, status: 200, type: "text/html; charset=utf-8" });
    }
    for (const q of ['"zebra"', "(zebra)", "zebra*", "-zebra", "^zebra", "{zebra}", "zebra)"])
      expect({ q, found: results((await search(q)).html) }).toEqual({ q, found: ["/docs/search/animals"] });
  });

  it("answers 404 for a source that does not exist", async () => {
    expect((await getPage(app, "/docs/nosuchsource/_search?q=zebra")).status).toBe(404);
  });
});
