import { beforeAll, describe, expect, it } from "bun:test";
import type { TestApp } from "../helpers/app.ts";
import type { SignedUp } from "../helpers/identity.ts";
import { addSource, articleOf, getPage, type GitHubStandIn } from "./docs.fixtures.ts";
import { PAGE_CSP, siteWorld } from "./site.fixtures.ts";

/* A document of a repository never runs script in the reader's browser. */
const { cast } = siteWorld();
let gh: GitHubStandIn;
let app: TestApp;
let admin: SignedUp;
beforeAll(() => ({ gh, app, admin } = cast));

describe("a document never runs script in the reader's browser", () => {
  it("drops script, event handlers, javascript: and data: links, frames, styles and forms", async () => {
    gh.repo("acme/hostile", {
      "docs/index.md": [
        "# Hostile",
        "",
        "<script>alert(1)</script>",
        "",
        "[plain](javascript:alert(2)) [mixed case](JaVaScRiPt:alert(3)) [entity](java&#x09;script:alert(4)) [data](data:text/html;base64,PHNjcmlwdD5hbGVydCg1KTwvc2NyaXB0Pg==)",
        "",
        '<a href="javascript:alert(6)">raw link</a> <a href=" javascript:alert(7)">spaced</a> <a href="vbscript:msgbox(8)">vb</a>',
        "",
        '<img src="x.png" onerror="alert(9)"> <div onclick="alert(10)" style="color:red">div</div>',
        "",
        '<iframe src="https://evil.example/"></iframe><object data="x.swf"></object><embed src="x.swf">',
        "",
        "<svg><script>alert(11)</script></svg><math><mi>x</mi></math>",
        "",
        "<style>body { display: none }</style>",
        "",
        '<form action="https://evil.example/"><input name="password"><button formaction="javascript:alert(12)">go</button></form>',
        "",
        '<meta http-equiv="refresh" content="0;url=https://evil.example/"><base href="https://evil.example/">',
        "",
        "![img](javascript:alert(13))",
        "",
        "Last line.",
      ].join("\n"),
    });
    await addSource(app, admin, { slug: "hostile", name: "Hostile", kind: "github", full_name: "acme/hostile" }, gh.url);
    const res = await getPage(app, "/docs/hostile/");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-security-policy")).toBe(PAGE_CSP);
    const article = articleOf(res.html);
    for (const bad of [
      "<script",
      "javascript",
      "vbscript",
      "data:text",
      "onerror",
      "onclick",
      "style=",
      "<iframe",
      "<object",
      "<embed",
      "<svg",
      "<math",
      "<style",
      "<form",
      "formaction",
      "<meta",
      "<base",
      "alert(",
    ])
      expect({ bad, found: article.toLowerCase().includes(bad) }).toEqual({ bad, found: false });
    // The prose stays: the links' words, the div's text, the last line.
    for (const text of [">plain</a>", ">mixed case</a>", ">raw link</a>", "div", "Last line."]) expect(article).toContain(text);
    expect(res.html).not.toContain("<script");
  });
});
