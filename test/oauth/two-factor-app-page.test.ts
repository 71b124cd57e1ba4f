import { beforeAll, describe, expect, it } from "bun:test";
import type { TestApp } from "../helpers/app.ts";
import type { SignedUp } from "../helpers/identity.ts";
import { approve, challengesWorld } from "./two-factor-challenges.fixtures.ts";
import { codeOf, confirm, newChallenge, type twoFactorWorld, verify } from "./two-factor.fixtures.ts";

/* The app's page lists its recent challenges for its owner: status and method, never who confirmed. */
const { cast, clock, code, anotherApp } = challengesWorld();
let app: TestApp;
let world: Awaited<ReturnType<typeof twoFactorWorld>>;
let owner: SignedUp;
beforeAll(() => ({ app, world, owner } = cast));

describe("the app's page: recent challenges for its owner", () => {
  it("lists each challenge's status and method, newest first; another user gets 404", async () => {
    const client = await anotherApp("Listed app");
    const path = `/api/oauth/me/clients/${client.client_id}/2fa-challenges`;
    const stamps: number[] = [];
    const step = () => {
      clock.advance(1000);
      stamps.push(clock.now());
    };
    step();
    const redeemed = await newChallenge(app, client, { action: "redeemed one" });
    const r = await approve(world.browser, redeemed, { method: "totp", code: await code() });
    const verifiedAt = clock.now(); // the dashboard's lists are in milliseconds, as every list of the account and app pages
    await verify(app, client, { code: codeOf(r.data.redirect_to), code_verifier: redeemed.verifier });
    step();
    const rejected = await newChallenge(app, client, { action: "rejected one" });
    await confirm(world.browser, { challenge_id: rejected.id, state: rejected.state, decision: "reject" });
    step();
    await newChallenge(app, client, { action: "open one", require_captcha: true });
    step();
    await newChallenge(app, client, { action: "expired one" });

    const list = await owner.browser.json("GET", path);
    expect(list.status).toBe(200);
    expect(list.data.challenges).toEqual([
      { created_at: stamps[3], action: "expired one", status: "created", method: null, verified_at: null, captcha: false },
      { created_at: stamps[2], action: "open one", status: "created", method: null, verified_at: null, captcha: true },
      { created_at: stamps[1], action: "rejected one", status: "closed", method: null, verified_at: null, captcha: false },
      { created_at: stamps[0], action: "redeemed one", status: "redeemed", method: "totp", verified_at: verifiedAt, captcha: false },
    ]);
    clock.advance(10 * 60_000);
    const later = (await owner.browser.json("GET", path)).data.challenges.map((c: { status: string }) => c.status);
    expect(later).toEqual(["expired", "expired", "closed", "redeemed"]);
    // who confirmed is not on the app's page
    expect(JSON.stringify(list.data)).not.toContain(world.user.user.id);

    const other = await world.browser.json("GET", path);
    expect(other.status).toBe(404);
    expect(other.data.error).toBe("not_found");
  });
});
