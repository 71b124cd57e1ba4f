import { beforeAll, describe, expect, it } from "bun:test";
import { deflateSync } from "node:zlib";
import { updateDocsSettings } from "../../src/docs/settings/docs-settings.ts";
import type { TestApp } from "../helpers/app.ts";
import type { SignedUp } from "../helpers/identity.ts";
import { addSource, getPage, type GitHubStandIn, type krokiStandIn } from "./docs.fixtures.ts";
import { siteWorld } from "./site.fixtures.ts";

/* Spec 3 section 8: diagrams rendered through the Kroki stand-in, kept 7 days, served only for a page's own diagram. */
const { clock, cast } = siteWorld();
let gh: GitHubStandIn;
let kroki: ReturnType<typeof krokiStandIn>;
let app: TestApp;
let admin: SignedUp;
beforeAll(() => ({ gh, kroki, app, admin } = cast));

describe("diagrams through the Kroki stand-in (spec 3 section 8: 7 days)", () => {
  let src = "";
  beforeAll(async () => {
    await updateDocsSettings(app.ctx, { kroki_url: kroki.url }, { trusted: true });
    gh.repo("acme/diagrams", { "docs/index.md": "# Diagrams\n\n```mermaid\nsequenceDiagram\n  Alice->>Bob: Hi <b>Bob</b>\n```\n" });
    await addSource(app, admin, { slug: "diagrams", name: "Diagrams", kind: "github", full_name: "acme/diagrams" }, gh.url);
    src = /<img class="diagram" src="([^"]+)"/.exec((await getPage(app, "/docs/diagrams/")).html)?.[1] ?? "";
  });

  it("renders a diagram block as an image whose key encodes the source, rendered by Kroki", async () => {
    expect(src).toMatch(/^\/docs\/_diagrams\/mermaid\/[A-Za-z0-9_.-]+\.svg$/);
    const renders = kroki.renders.length;
    const res = await fetch(app.url + src);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/svg+xml");
    expect(res.headers.get("content-security-policy")).toBe("default-src 'none'; style-src 'unsafe-inline'; sandbox");
    expect(res.headers.get("cache-control")).toBe("public, max-age=604800, immutable");
    expect(await res.text()).toBe('<svg xmlns="http://www.w3.org/2000/svg"><text>sequenceDiagram\n  Alice-&gt;&gt;Bob: Hi &lt;b&gt;Bob&lt;/b&gt;</text></svg>');
    expect(kroki.renders.slice(renders)).toEqual([{ type: "mermaid", source: "sequenceDiagram\n  Alice->>Bob: Hi <b>Bob</b>" }]);
  });

  it("keeps a render 7 days: Kroki is not asked again before, and is after", async () => {
    const renders = kroki.renders.length;
    await fetch(app.url + src);
    expect(kroki.renders).toHaveLength(renders);
    clock.advance(7 * 86_400_000 - 1);
    expect((await fetch(app.url + src)).status).toBe(200);
    expect(kroki.renders).toHaveLength(renders);
    clock.advance(1);
    expect((await fetch(app.url + src)).status).toBe(200);
    expect(kroki.renders).toHaveLength(renders + 1);
  });

  it("answers 404, without asking Kroki, for a diagram no page of the site has, another type, and when Kroki is off", async () => {
    const renders = kroki.renders.length;
    const file = src.split("/").pop() as string;
    const [key, mac] = file.split(".");
    // A well-formed key (zlib, base64url) of a diagram no page has, under the MAC of another.
    const forged = deflateSync("graph TD; X-->Y", { level: 9 }).toString("base64url");
    for (const path of [
      `nosuchtype/${file}`,
      `plantuml/${file}`,
      "mermaid/not-a-key.svg",
      `mermaid/${key}.svg`,
      `mermaid/${key}.${"A".repeat((mac as string).length)}.svg`,
      `mermaid/${forged}.${mac}.svg`,
    ])
      expect({ path, status: (await fetch(`${app.url}/docs/_diagrams/${path}`)).status }).toEqual({ path, status: 404 });
    expect(kroki.renders).toHaveLength(renders);
    await updateDocsSettings(app.ctx, { kroki_url: "" }, { trusted: true });
    try {
      expect((await fetch(app.url + src)).status).toBe(404);
    } finally {
      await updateDocsSettings(app.ctx, { kroki_url: kroki.url }, { trusted: true });
    }
  });
});
