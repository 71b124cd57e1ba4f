import { beforeAll, describe, expect, it } from "bun:test";
import { startApp, type TestApp } from "../helpers/app.ts";
import { type SignedUp, signUp } from "../helpers/identity.ts";
import { freePort } from "../helpers/temp.ts";
import { addSource, getPage, type GitHubStandIn } from "./docs.fixtures.ts";
import { PNG, sidebarLabels, siteWorld } from "./site.fixtures.ts";

/* An unreadable repository gives a 404 page, never a 5xx, and is read again once it is back. */
const { clock, cast } = siteWorld();
let gh: GitHubStandIn;
let app: TestApp;
let admin: SignedUp;
beforeAll(() => ({ gh, app, admin } = cast));

describe("an unreadable repository: a 404 page, never a 5xx", () => {
  it("answers 404 pages while the repository answers 500, and reads it again once it is back", async () => {
    gh.repo("acme/flaky", { "docs/index.md": "# Flaky\n\nBack again.\n", "docs/img/p.png": PNG });
    await addSource(app, admin, { slug: "flaky", name: "Flaky", kind: "github", full_name: "acme/flaky" }, gh.url);
    for (const status of [500, 502, 403, 404]) {
      gh.failWith("acme/flaky", status);
      for (const path of ["/docs/flaky/", "/docs/flaky/some/page", "/docs/flaky/_search?q=flaky", "/docs/flaky/_files/docs/img/p.png"]) {
        const res = await getPage(app, path);
        expect({ status, path, answered: res.status }).toEqual({ status, path, answered: 404 });
      }
      expect((await getPage(app, "/docs/flaky/")).html).toContain("This page cannot be read from its repository right now.");
    }
    // A failure is not cached.
    gh.failWith("acme/flaky", null);
    const back = await getPage(app, "/docs/flaky/");
    expect(back.status).toBe(200);
    expect(back.html).toContain("Back again.");
  });

  it("leaves a page it cannot read out of the sidebar, shows the others, and lists it once it can be read", async () => {
    gh.repo("acme/patchy", { "docs/index.md": "# Patchy\n\nHome.\n", "docs/good.md": "# Good page\n", "docs/bad.md": "# Bad page\n" });
    gh.unreadable("acme/patchy", "docs/bad.md");
    await addSource(app, admin, { slug: "patchy", name: "Patchy", kind: "github", full_name: "acme/patchy" }, gh.url);
    const home = await getPage(app, "/docs/patchy/");
    expect(home.status).toBe(200);
    expect(sidebarLabels(home.html)).toEqual(["Patchy", "Good page"]);
    expect((await getPage(app, "/docs/patchy/bad")).status).toBe(404);
    // Nothing of that sidebar was kept: the next view asks again.
    gh.unreadable("acme/patchy", "docs/bad.md", false);
    expect(sidebarLabels((await getPage(app, "/docs/patchy/good")).html)).toEqual(["Patchy", "Bad page", "Good page"]);
    expect((await getPage(app, "/docs/patchy/bad")).status).toBe(200);
  });

  it("answers 404 pages when nothing listens at the repository's API base", async () => {
    gh.repo("acme/down", { "docs/index.md": "# Down\n" });
    await addSource(app, admin, { slug: "down", name: "Down", kind: "github", full_name: "acme/down" }, `http://127.0.0.1:${freePort()}`);
    for (const path of ["/docs/down/", "/docs/down/_search?q=down", "/docs/down/_files/docs/img/p.png"]) {
      const res = await getPage(app, path);
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
    }
  });

  it("refuses a repository API on this machine without the test switch: the outbound guard, a 404 page", async () => {
    const guarded = await startApp({ overrides: { clock } });
    try {
      const guardedAdmin = await signUp(guarded, "admin");
      await addSource(guarded, guardedAdmin, { slug: "guarded", name: "Guarded", kind: "github", full_name: "acme/site" }, gh.url);
      const before = gh.requests.length;
      expect((await getPage(guarded, "/docs/guarded/")).status).toBe(404);
      expect(gh.requests).toHaveLength(before);
    } finally {
      await guarded.stop();
    }
  });
});
