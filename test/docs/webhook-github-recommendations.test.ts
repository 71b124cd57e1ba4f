import { beforeAll, describe, expect, it } from "bun:test";
import { randomUUID } from "node:crypto";
import type { TestApp } from "../helpers/app.ts";
import { articleOf, deliver, pushPayload, served, signature, TAG_PUSH } from "./docs.fixtures.ts";
import { INTRO, SECRET, SETUP, WARM, webhookWorld } from "./webhook.fixtures.ts";

/* Spec 3 section 4.4: what GitHub recommends of a webhook receiver: branches and tags, duplicate and replayed deliveries, truncated commit lists, form bodies. */
const { handbook, push, cacheRows, cast } = webhookWorld();
let app: TestApp;
beforeAll(() => ({ app } = cast));

describe("spec 3 section 4.4: what GitHub recommends", () => {
  it("a push to another branch changes nothing: {invalidated:0}, not even the tree is fetched again", async () => {
    const h = await handbook();
    h.put(SETUP, "# Setup\n\nInstall it with a wrench.\n");
    const before = h.hits();
    const res = await push(pushPayload(h.fullName, [{ modified: [SETUP] }], "refs/heads/feature/new-setup"));
    expect(res.data).toEqual({ invalidated: 0 });
    const pages = await h.viewAll();
    expect(served(before, h.hits())).toEqual({});
    expect(articleOf(pages["en/guide/setup"] as string)).toContain("Install it with care.");
  });

  it("a tag push (the package's example) changes nothing either", async () => {
    const h = await handbook();
    const before = h.hits();
    const payload = structuredClone(TAG_PUSH);
    payload.repository.full_name = h.fullName;
    expect(payload.ref).toBe("refs/tags/simple-tag");
    expect((await push(payload)).data).toEqual({ invalidated: 0 });
    await h.viewAll();
    expect(served(before, h.hits())).toEqual({});
  });

  it("a delivery id seen before is not processed twice", async () => {
    const h = await handbook();
    const payload = pushPayload(h.fullName, [{ modified: [SETUP] }]);
    const delivery = randomUUID();
    h.put(SETUP, "# Setup\n\nInstall it with a wrench.\n");
    expect((await push(payload, { delivery })).data).toEqual({ invalidated: 1 });
    await h.viewAll();
    h.put(SETUP, "# Setup\n\nInstall it with a hammer.\n");
    const before = h.hits();
    const again = await push(payload, { delivery });
    expect(again.status).toBe(200);
    expect(again.data).toEqual({ invalidated: 0, duplicate: true });
    const pages = await h.viewAll();
    expect(served(before, h.hits())).toEqual({});
    expect(articleOf(pages["en/guide/setup"] as string)).toContain("with a wrench");
    // The next push (another body: GitHub's payload names its own head commit and time) is processed.
    const next = pushPayload(h.fullName, [{ modified: [SETUP] }]);
    next.after = "c".repeat(40);
    expect((await push(next)).data).toEqual({ invalidated: 1 });
    expect(articleOf((await h.view("en", "guide/setup")).html)).toContain("with a hammer");
  });

  it("a signed push replayed under a new delivery id, or none, is not processed again (the signature covers the body, not the id)", async () => {
    const h = await handbook();
    const body = JSON.stringify(pushPayload(h.fullName, [{ modified: [SETUP] }]));
    h.put(SETUP, "# Setup\n\nInstall it with a wrench.\n");
    expect((await deliver(app, "push", body, { secret: SECRET, delivery: randomUUID() })).data).toEqual({ invalidated: 1 });
    await h.viewAll();
    h.put(SETUP, "# Setup\n\nInstall it with a hammer.\n");
    const before = h.hits();
    for (const delivery of [randomUUID(), null, "", "x".repeat(201)]) {
      const replay = await deliver(app, "push", body, { secret: SECRET, delivery });
      expect({ delivery, status: replay.status, data: replay.data }).toEqual({ delivery, status: 200, data: { invalidated: 0, duplicate: true } });
    }
    const pages = await h.viewAll();
    expect(served(before, h.hits())).toEqual({});
    expect(articleOf(pages["en/guide/setup"] as string)).toContain("with a wrench");
  });

  it("50 copies of one signed push at once, each under its own delivery id: exactly one is processed", async () => {
    const h = await handbook();
    const body = JSON.stringify(pushPayload(h.fullName, [{ modified: [SETUP] }]));
    const answers = await Promise.all(Array.from({ length: 50 }, () => deliver(app, "push", body, { secret: SECRET, delivery: randomUUID() })));
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
    expect(answers.filter((a) => JSON.stringify(a.data) === '{"invalidated":1}')).toHaveLength(1);
    expect(answers.filter((a) => JSON.stringify(a.data) === '{"invalidated":0,"duplicate":true}')).toHaveLength(49);
  });

  it("a truncated commit list (2048 commits, GitHub's most) drops every entry of the repository", async () => {
    const h = await handbook();
    const other = await handbook();
    h.put(INTRO, "---\nsidebar_position: 1\n---\n# Intro\n\nChanged in a commit the list left out.\n");
    const before = h.hits();
    const otherBefore = other.hits();
    const rows = (await cacheRows(h.id)).length;
    // The example's commits, 2048 of them: about 1.1 MB, as GitHub sends such a push.
    const payload = pushPayload(
      h.fullName,
      Array.from({ length: 2048 }, () => ({ modified: ["README.md"] })),
    );
    const res = await push(payload);
    expect(res.status).toBe(200);
    expect(res.data).toEqual({ invalidated: rows });
    expect(await cacheRows(h.id)).toEqual([]);
    const pages = await h.viewAll();
    // Everything is read again, as when the site was first visited.
    expect(served(before, h.hits())).toEqual(WARM);
    expect(articleOf(pages["en/intro"] as string)).toContain("Changed in a commit the list left out.");
    await other.viewAll();
    expect(served(otherBefore, other.hits())).toEqual({});
  });

  it("takes GitHub's form content type (payload=<json>), signed over the form body", async () => {
    const h = await handbook();
    h.put(SETUP, "# Setup\n\nInstall it with a wrench.\n");
    const form = `payload=${encodeURIComponent(JSON.stringify(pushPayload(h.fullName, [{ modified: [SETUP] }])))}`;
    const bad = await deliver(app, "push", form, {
      contentType: "application/x-www-form-urlencoded",
      sign: signature(SECRET, decodeURIComponent(form.slice(8))),
    });
    expect(bad.status).toBe(401);
    const res = await deliver(app, "push", form, { contentType: "application/x-www-form-urlencoded", secret: SECRET });
    expect(res.status).toBe(200);
    expect(res.data).toEqual({ invalidated: 1 });
    expect(articleOf((await h.view("en", "guide/setup")).html)).toContain("Install it with a wrench.");
  });
});
