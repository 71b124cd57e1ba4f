import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { startApp, type TestApp } from "../helpers/app.ts";
import { signUp, type SignedUp } from "../helpers/identity.ts";

describe("spec 3 section 4.1 with real accounts: owners of the owner team change the config", () => {
  let app: TestApp;
  let admin: SignedUp;
  let owner: SignedUp;
  let member: SignedUp;
  beforeAll(async () => {
    app = await startApp();
    admin = await signUp(app, "siteadmin");
    owner = await signUp(app, "owner");
    member = await signUp(app, "member");
    const team = (await owner.browser.json("POST", "/api/oauth/me/teams", { name: "Household" })).data.team;
    await owner.browser.json("POST", `/api/oauth/me/teams/${team.id}/members`, { username: "member", role: "co-owner" });
    expect((await app.json("POST", "/api/init/setup", { config: { owner_team_id: team.id } })).status).toBe(200);
  });
  afterAll(() => app.stop());

  it("answers 401 Unauthorized to nobody signed in", async () => {
    expect(await app.client().json("PUT", "/api/init/config", { idp_client_id: "x" })).toMatchObject({ status: 401, data: { error: "Unauthorized" } });
  });

  it("answers 403 Forbidden to a co-owner and to a site admin who own nothing there", async () => {
    expect(await member.browser.json("PUT", "/api/init/config", { idp_client_id: "x" })).toMatchObject({ status: 403, data: { error: "Forbidden" } });
    expect((await admin.browser.json("PUT", "/api/init/config", { idp_client_id: "x" })).status).toBe(403);
  });

  it("lets the team owner change it, by cookie from our pages or by Bearer session", async () => {
    expect((await owner.browser.json("PUT", "/api/init/config", { idp_client_id: "by-owner" })).data.config.idp_client_id).toBe("by-owner");
    expect((await owner.bearer("PUT", "/api/init/config", { use_pkce: false })).data.config.use_pkce).toBe(false);
  });

  it("refuses the owner's cookie on a cross-site write", async () => {
    const res = await owner.browser.json("PUT", "/api/init/config", { idp_client_id: "evil" }, { origin: "https://evil.example" });
    expect(res.status).toBe(403);
    expect((await app.json("GET", "/api/init/config")).data.config.idp_client_id).toBe("by-owner");
  });
});
