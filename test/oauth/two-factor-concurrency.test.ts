import { beforeAll, describe, expect, it } from "bun:test";
import type { TestApp } from "../helpers/app.ts";
import { approve, approvedRedirect, challengesWorld } from "./two-factor-challenges.fixtures.ts";
import { codeOf, newChallenge, type twoFactorWorld, verify } from "./two-factor.fixtures.ts";

/* A challenge and its code are each consumed atomically: of identical answers or redemptions at once, exactly one wins. */
const { cast, code, anotherApp, openWindow } = challengesWorld();
let app: TestApp;
let world: Awaited<ReturnType<typeof twoFactorWorld>>;
beforeAll(() => ({ app, world } = cast));

describe("concurrency: challenge and code are each consumed atomically", () => {
  it("50 identical sudo approvals of one challenge at once: exactly one code, the rest 404", async () => {
    const client = await anotherApp("Race app");
    await openWindow(world.browser, client);
    const ch = await newChallenge(app, client);
    const answers = await Promise.all(Array.from({ length: 50 }, () => approve(world.browser, ch, { method: "sudo" })));
    const won = answers.filter((a) => a.status === 200);
    expect(won).toHaveLength(1);
    expect(won[0]?.data).toEqual({ redirect_to: approvedRedirect(ch, won[0]?.data.redirect_to) });
    expect(answers.filter((a) => a.status === 404 && a.data.error === "not_found")).toHaveLength(49);
  });

  it("50 identical backup-code approvals of one challenge at once: exactly one code, the rest 404; one backup code spent", async () => {
    const client = await anotherApp("Backup race app");
    const ch = await newChallenge(app, client);
    const backup = world.backupCodes[2] as string;
    const answers = await Promise.all(Array.from({ length: 50 }, () => approve(world.browser, ch, { method: "backup", code: backup })));
    expect(answers.filter((a) => a.status === 200 && a.data.error === undefined)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 404)).toHaveLength(49);
    // the backup code was used by the winner
    const again = await newChallenge(app, client);
    expect((await approve(world.browser, again, { method: "backup", code: backup })).data.error).toBe("access_denied");
  });

  it("50 identical verifies of one code at once: exactly one result, the rest invalid_grant", async () => {
    const client = await anotherApp("Verify race app");
    const ch = await newChallenge(app, client);
    const approved = await approve(world.browser, ch, { method: "totp", code: await code() });
    const c = codeOf(approved.data.redirect_to);
    const answers = await Promise.all(Array.from({ length: 50 }, () => verify(app, client, { code: c, code_verifier: ch.verifier })));
    const won = answers.filter((a) => a.status === 200);
    expect(won).toHaveLength(1);
    expect(won[0]?.data.method).toBe("totp");
    expect(answers.filter((a) => a.status === 400 && a.data.error === "invalid_grant")).toHaveLength(49);
  });
});
