import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { startApp, type TestApp } from "../helpers/app.ts";
import type { SignedUp } from "../helpers/identity.ts";
import { teamOwner } from "../helpers/workspace.ts";

let app: TestApp;
let alice: SignedUp;
let bob: SignedUp;
beforeAll(async () => {
  app = await startApp();
  alice = (await teamOwner(app, "alice")).user;
  bob = (await teamOwner(app, "bob", "Other")).user;
});
afterAll(() => app.stop());

const URL_ = "/api/user/settings";

describe("spec 3 section 4.3 /api/user/settings", () => {
  it("answers 401 Unauthorized without a workspace session, on GET and PUT", async () => {
    expect(await app.client().json("GET", URL_)).toMatchObject({ status: 401, data: { error: "Unauthorized" } });
    const put = await app.client().json("PUT", URL_, { detailed_status: true }, { origin: app.url });
    expect(put).toMatchObject({ status: 401, data: { error: "Unauthorized" } });
  });

  it("answers {settings:{}} to a user who never saved (section 2.4)", async () => {
    expect(await alice.browser.json("GET", URL_)).toMatchObject({ status: 200, data: { settings: {} } });
  });

  it("changes only the provided fields, ignores unknown keys, and answers the full object", async () => {
    const first = await alice.browser.json("PUT", URL_, { realtime_transport: "sse", detailed_status: true, nonsense: "x" });
    expect(first).toMatchObject({ status: 200 });
    expect(first.data).toEqual({ settings: { realtime_transport: "sse", detailed_status: true } });
    const second = await alice.browser.json("PUT", URL_, {
      action_bar: ["edit", "complete", "delete"],
      workspace_favicon: false,
      personal_avatar_icon: true,
      complete_sound_enabled: true,
      complete_sound_url: "https://example.com/ding.mp3",
    });
    expect(second.data).toEqual({
      settings: {
        realtime_transport: "sse",
        detailed_status: true,
        action_bar: ["edit", "complete", "delete"],
        workspace_favicon: false,
        personal_avatar_icon: true,
        complete_sound_enabled: true,
        complete_sound_url: "https://example.com/ding.mp3",
      },
    });
    expect((await alice.browser.json("GET", URL_)).data).toEqual(second.data);
  });

  it("resets action_bar with null and complete_sound_url with an empty string", async () => {
    const res = await alice.browser.json("PUT", URL_, { action_bar: null, complete_sound_url: "" });
    expect(res.status).toBe(200);
    expect(res.data.settings).toMatchObject({ action_bar: null, complete_sound_url: "", realtime_transport: "sse" });
  });

  it("keeps each user's settings apart", async () => {
    expect((await bob.browser.json("GET", URL_)).data).toEqual({ settings: {} });
  });

  it.each([
    ["action_bar with an unknown key", { action_bar: ["edit", "fly"] }],
    ["action_bar with a repeated key", { action_bar: ["edit", "edit"] }],
    ["action_bar not an array", { action_bar: "edit" }],
    ["realtime_transport not ws, sse or auto", { realtime_transport: "poll" }],
    ["workspace_favicon not a boolean", { workspace_favicon: "true" }],
    ["detailed_status not a boolean", { detailed_status: 1 }],
    ["personal_avatar_icon not a boolean", { personal_avatar_icon: null }],
    ["complete_sound_enabled not a boolean", { complete_sound_enabled: "on" }],
    ["complete_sound_url not a URL", { complete_sound_url: "ding.mp3" }],
  ])("answers 400 Invalid request for %s, changing nothing", async (_name, body) => {
    const before = (await alice.browser.json("GET", URL_)).data;
    const res = await alice.browser.json("PUT", URL_, { detailed_status: false, ...body });
    expect(res).toMatchObject({ status: 400, data: { error: "Invalid request" } });
    expect((await alice.browser.json("GET", URL_)).data).toEqual(before);
  });

  it("answers 400 Invalid request for malformed JSON", async () => {
    expect(await alice.browser.json("PUT", URL_, "{nope")).toMatchObject({ status: 400, data: { error: "Invalid request" } });
  });
});
