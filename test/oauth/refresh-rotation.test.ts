import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import * as client from "openid-client";
import type { TestApp } from "../helpers/app.ts";
import { manualClock } from "../helpers/clock.ts";
import type { SignedUp } from "../helpers/identity.ts";
import { confidentialApp, oauthErrorOf, obtainTokensRaw, postForm, type RegisteredApp, startOAuthWorld, TOKEN, withToken } from "./oauth.fixtures.ts";

const DAY = 86_400_000;
const clock = manualClock();
let app: TestApp;
let owner: SignedUp;
let user: SignedUp;
let rp: RegisteredApp;
beforeAll(async () => ({ app, owner, user, rp } = await startOAuthWorld({ overrides: { clock } })));
afterAll(() => app.stop());

const refresh = (token: string, extra: Record<string, string> = {}, r: RegisteredApp = rp) =>
  postForm(app, TOKEN, { grant_type: "refresh_token", refresh_token: token, ...extra }, { basic: [r.client_id, r.client_secret] });

const userinfoStatus = async (accessToken: string) => (await withToken(app, accessToken)("GET", "/api/oauth/userinfo")).status;

describe("spec 1 section 3.2: a refresh rotates the refresh token", () => {
  it("answers a new refresh token and a new access token through openid-client; both work", async () => {
    const tokens = await obtainTokensRaw(app, user, rp, "openid profile offline_access");
    const refreshed = await client.refreshTokenGrant(rp.config, tokens.refresh_token as string);
    expect(refreshed.refresh_token).toBeString();
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect(refreshed.access_token).not.toBe(tokens.access_token);
    expect(refreshed.scope).toBe("openid profile offline_access");
    expect(refreshed.claims()?.sub).toBe(user.user.id);
    expect(await userinfoStatus(refreshed.access_token)).toBe(200);
    expect((await refresh(refreshed.refresh_token as string)).status).toBe(200);
  });

  it("may narrow the scope; the new access token carries only the narrower scope", async () => {
    const tokens = await obtainTokensRaw(app, user, rp, "openid profile email offline_access");
    const res = await refresh(tokens.refresh_token as string, { scope: "openid email" });
    expect(res.status).toBe(200);
    expect(res.data.scope).toBe("openid email");
    const info = await withToken(app, res.data.access_token)("GET", "/api/oauth/userinfo");
    expect(info.data.email).toBe("alice@example.com");
    expect(info.data.name).toBeUndefined();
  });

  it("refuses a wider scope with invalid_scope, and the refresh token stays usable", async () => {
    const tokens = await obtainTokensRaw(app, user, rp, "openid offline_access");
    const wider = await refresh(tokens.refresh_token as string, { scope: "openid offline_access profile" });
    expect({ status: wider.status, error: wider.data.error }).toEqual({ status: 400, error: "invalid_scope" });
    // A refused request is not a use: the same token still refreshes, and the grant is alive.
    const retry = await refresh(tokens.refresh_token as string);
    expect(retry.status).toBe(200);
    expect(await userinfoStatus(retry.data.access_token)).toBe(200);
  });

  it("another client presenting the token gets invalid_grant and does not spend it", async () => {
    const other = await confidentialApp(app, owner);
    const tokens = await obtainTokensRaw(app, user, rp, "openid offline_access");
    const stolen = await refresh(tokens.refresh_token as string, {}, other);
    expect({ status: stolen.status, error: stolen.data.error }).toEqual({ status: 400, error: "invalid_grant" });
    expect((await refresh(tokens.refresh_token as string)).status).toBe(200);
  });

  it("a refresh without a refresh_token is invalid_request; an unknown one invalid_grant", async () => {
    const missing = await postForm(app, TOKEN, { grant_type: "refresh_token" }, { basic: [rp.client_id, rp.client_secret] });
    expect({ status: missing.status, error: missing.data.error }).toEqual({ status: 400, error: "invalid_request" });
    const unknown = await refresh("not-a-refresh-token");
    expect({ status: unknown.status, error: unknown.data.error }).toEqual({ status: 400, error: "invalid_grant" });
  });
});

describe("spec 1 section 3.2: a superseded refresh token revokes the whole grant", () => {
  it("presenting the old token again ends every token of the grant, the newest included", async () => {
    const tokens = await obtainTokensRaw(app, user, rp, "openid offline_access");
    const rotated = await refresh(tokens.refresh_token as string);
    expect(rotated.status).toBe(200);
    const replay = await refresh(tokens.refresh_token as string);
    expect({ status: replay.status, error: replay.data.error }).toEqual({ status: 400, error: "invalid_grant" });
    expect(await userinfoStatus(tokens.access_token)).toBe(401);
    expect(await userinfoStatus(rotated.data.access_token)).toBe(401);
    const next = await refresh(rotated.data.refresh_token);
    expect({ status: next.status, error: next.data.error }).toEqual({ status: 400, error: "invalid_grant" });
  });

  it("openid-client sees invalid_grant for the replayed token", async () => {
    const tokens = await obtainTokensRaw(app, user, rp, "openid offline_access");
    await client.refreshTokenGrant(rp.config, tokens.refresh_token as string);
    expect(await oauthErrorOf(client.refreshTokenGrant(rp.config, tokens.refresh_token as string))).toMatchObject({ error: "invalid_grant", status: 400 });
  });

  it("leaves the user's other grants alone", async () => {
    const kept = await obtainTokensRaw(app, user, rp, "openid offline_access");
    const doomed = await obtainTokensRaw(app, user, rp, "openid offline_access");
    await refresh(doomed.refresh_token as string);
    await refresh(doomed.refresh_token as string);
    expect(await userinfoStatus(kept.access_token)).toBe(200);
    expect((await refresh(kept.refresh_token as string)).status).toBe(200);
  });
});

describe("concurrency: one refresh token, many parallel refreshes", () => {
  it("of 50 parallel refreshes at most one succeeds, and the grant ends revoked", async () => {
    const tokens = await obtainTokensRaw(app, user, rp, "openid offline_access");
    const answers = await Promise.all(Array.from({ length: 50 }, () => refresh(tokens.refresh_token as string)));
    const ok = answers.filter((a) => a.status === 200);
    expect(ok.length).toBeLessThanOrEqual(1);
    for (const refused of answers.filter((a) => a.status !== 200))
      expect({ status: refused.status, error: refused.data.error }).toEqual({ status: 400, error: "invalid_grant" });
    // The replays revoked the grant: nothing issued from it works.
    expect(await userinfoStatus(tokens.access_token)).toBe(401);
    for (const winner of ok) {
      expect(await userinfoStatus(winner.data.access_token)).toBe(401);
      expect((await refresh(winner.data.refresh_token)).status).toBe(400);
    }
  });
});

// Last: the clock jumps 30 days, past every session of this file.
describe("spec 1 section 3.2 and ARCHITECTURE section 4: the refresh token lifetime", () => {
  it("keeps the original absolute expiry of 30 days: rotation never extends it", async () => {
    const tokens = await obtainTokensRaw(app, user, rp, "openid offline_access");
    let current = tokens.refresh_token as string;
    for (const day of [10, 20, 29]) {
      clock.advance(day === 10 ? 10 * DAY : day === 20 ? 10 * DAY : 9 * DAY);
      const res = await refresh(current);
      expect({ day, status: res.status }).toEqual({ day, status: 200 });
      current = res.data.refresh_token;
    }
    // Day 30 plus a second: the newest token was issued a day ago, but the grant's 30 days are over.
    clock.advance(DAY + 1000);
    const late = await refresh(current);
    expect({ status: late.status, error: late.data.error }).toEqual({ status: 400, error: "invalid_grant" });
  });
});
