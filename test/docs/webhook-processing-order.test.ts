import { beforeAll, describe, expect, it } from "bun:test";
import type { TestApp } from "../helpers/app.ts";
import type { SignedUp } from "../helpers/identity.ts";
import { addSource, articleOf, deliver, getPage, type GitHubStandIn, ISSUES_OPENED, PING, pushPayload, served, signature } from "./docs.fixtures.ts";
import { SECRET, SETUP, webhookWorld } from "./webhook.fixtures.ts";

/* Spec 3 section 4.4: the order the docs webhook processes a delivery in: signature, event, repository. */
const { handbook, push, cast } = webhookWorld();
let gh: GitHubStandIn;
let app: TestApp;
let admin: SignedUp;
beforeAll(() => ({ gh, app, admin } = cast));

describe("spec 3 section 4.4: processing order", () => {
  it("checks the signature before parsing: a body that is not JSON is 401 with a wrong signature, 400 with a right one", async () => {
    const bad = await deliver(app, "push", "{not json", { sign: signature("another secret", "{not json") });
    expect(bad.status).toBe(401);
    expect(bad.data).toEqual({ error: "bad signature", code: "bad_signature" });
    const good = await deliver(app, "push", "{not json", { secret: SECRET });
    expect(good.status).toBe(400);
    expect(good.data).toEqual({ error: "Invalid request", code: "invalid_request" });
  });

  it("checks the signature before answering a ping", async () => {
    const res = await deliver(app, "ping", PING, { sign: signature("another secret", JSON.stringify(PING)) });
    expect(res.status).toBe(401);
    expect(res.data).toEqual({ error: "bad signature", code: "bad_signature" });
  });

  it("answers ping with {pong:true} before looking the repository up (the example names one not configured)", async () => {
    expect(PING.repository.full_name).toBe("Octocoders/Hello-World");
    const res = await deliver(app, "ping", PING, { secret: SECRET });
    expect(res.status).toBe(200);
    expect(res.contentType).toStartWith("application/json");
    expect(res.data).toEqual({ pong: true });
  });

  it("answers another event with a short text and status 200, before looking the repository up", async () => {
    const res = await deliver(app, "issues", ISSUES_OPENED, { secret: SECRET });
    expect(res.status).toBe(200);
    expect(res.contentType).toStartWith("text/plain");
    expect(res.data).toBe("ignored");
  });

  it("goes by the event header: a push payload sent as another event invalidates nothing", async () => {
    const h = await handbook();
    h.put(SETUP, "# Setup\n\nInstall it with a wrench.\n");
    const before = h.hits();
    const res = await deliver(app, "create", pushPayload(h.fullName, [{ modified: [SETUP] }]), { secret: SECRET });
    expect(res.status).toBe(200);
    expect(res.data).toBe("ignored");
    const pages = await h.viewAll();
    expect(served(before, h.hits())).toEqual({});
    expect(articleOf(pages["en/guide/setup"] as string)).toContain("Install it with care.");
  });

  it("answers `repo not configured` (200, text) for a repository.full_name no source has", async () => {
    const payload = pushPayload("someone/elsewhere", [{ modified: ["docs/intro.md"] }]);
    const res = await push(payload);
    expect(res.status).toBe(200);
    expect(res.contentType).toStartWith("text/plain");
    expect(res.data).toBe("repo not configured");
    delete payload.repository;
    expect((await push(payload)).data).toBe("repo not configured");
  });

  it("compares repository.full_name lowercased: an upper-case name in the payload matches the source", async () => {
    const h = await handbook();
    h.put(SETUP, "# Setup\n\nInstall it with a wrench.\n");
    const res = await push(pushPayload(h.fullName.toUpperCase(), [{ modified: [SETUP] }]));
    expect(res.data).toEqual({ invalidated: 1 });
    expect(articleOf((await h.view("en", "guide/setup")).html)).toContain("Install it with a wrench.");
  });

  it("matches a source added with a mixed-case full_name to the lower-case name of a payload", async () => {
    gh.repo("Acme/Mixed-Case", { "docs/index.md": "# Home\n\nOld home.\n" });
    const source = await addSource(app, admin, { slug: "mixed-case", name: "Mixed", kind: "github", full_name: "Acme/Mixed-Case" }, gh.url);
    expect(source.full_name).toBe("acme/mixed-case");
    expect((await getPage(app, "/docs/mixed-case/")).html).toContain("Old home.");
    gh.put("Acme/Mixed-Case", "docs/index.md", "# Home\n\nNew home.\n");
    expect((await push(pushPayload("acme/mixed-case", [{ modified: ["docs/index.md"] }]))).data).toEqual({ invalidated: 1 });
    expect((await getPage(app, "/docs/mixed-case/")).html).toContain("New home.");
  });
});
