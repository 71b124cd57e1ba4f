import { describe, expect, it } from "bun:test";
import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import { htmlErrorPage } from "../../src/shared/error-page.ts";
import { startApp } from "../helpers/app.ts";
import { signUp } from "../helpers/identity.ts";

// Issue 17 finding 1: with this instance as the IdP, setup and later changes always leave a
// working workspace, and name only teams that exist here.
describe("spec 3 section 4.1 with this instance as the identity provider", () => {
  it("setup with access fields still registers the built-in workspace client, and sign-in works", async () => {
    const app = await startApp();
    try {
      const owner = await signUp(app, "owner");
      const team = (await owner.browser.json("POST", "/api/oauth/me/teams", { name: "Household" })).data.team;
      expect((await app.json("POST", "/api/init/setup", { config: { allowed_team_id: team.id, owner_team_id: team.id } })).status).toBe(200);
      const config = (await app.json("GET", "/api/init/config")).data.config;
      expect(config).toMatchObject({ idp_base_url: app.url, idp_redirect_uri: `${app.url}/api/workspace/callback`, use_pkce: true, allowed_team_id: team.id });
      expect(config.idp_client_id).not.toBe("");
      const login = await owner.browser.fetch("/api/workspace/login");
      expect(login.status).toBe(302);
      expect(login.headers.get("location")).toStartWith(`${app.url}/api/oauth/authorize?`);
    } finally {
      await app.stop();
    }
  });

  it("refuses setup naming a team this instance does not have, and stays unconfigured", async () => {
    const app = await startApp();
    try {
      const res = await app.json("POST", "/api/init/setup", { config: { allowed_team_id: "made-up-team" } });
      expect(res).toMatchObject({ status: 400, data: { error: "Invalid request" } });
      expect((await app.json("GET", "/api/init/status")).data).toEqual({ configured: false });
      expect((await app.json("POST", "/api/init/setup", { config: { owner_team_id: "made-up-team" } })).status).toBe(400);
    } finally {
      await app.stop();
    }
  });

  it("after setup, refuses unknown teams, repairs a cleared client, and says who may change it", async () => {
    const app = await startApp();
    try {
      const owner = await signUp(app, "owner");
      const other = await signUp(app, "other");
      const team = (await owner.browser.json("POST", "/api/oauth/me/teams", { name: "Household" })).data.team;
      await app.json("POST", "/api/init/setup", { config: { owner_team_id: team.id } });
      const builtIn = (await app.json("GET", "/api/init/config")).data.config.idp_client_id as string;

      const unknown = await owner.browser.json("PUT", "/api/init/config", { allowed_team_id: "made-up-team" });
      expect(unknown).toMatchObject({ status: 400, data: { error: "Invalid request" } });
      expect((await app.json("GET", "/api/init/config")).data.config.allowed_team_id).toBe("");

      // A config left without a client (the old wizard's bug) is repaired: the same built-in client.
      const repaired = await owner.browser.json("PUT", "/api/init/config", { idp_client_id: "" });
      expect(repaired.status).toBe(200);
      expect(repaired.data.config.idp_client_id).toBe(builtIn);
      expect(await app.ctx.db.all(sql`SELECT count(*) AS n FROM oauth_clients WHERE owner_user_id IS NULL`)).toEqual([{ n: 1 }]);

      const writable = async (fetcher: { fetch: (path: string) => Promise<Response> }) =>
        (await fetcher.fetch("/api/init/config")).headers.get("cairn-config-writable");
      expect(await writable(owner.browser)).toBe("true");
      expect(await writable(other.browser)).toBe("false");
      expect(await writable(app.client())).toBe("false");
    } finally {
      await app.stop();
    }
  });
});

describe("issue 17 finding 5: pages for a person who cannot be sent anywhere useful", () => {
  it("are styled by one inline stylesheet that their CSP allows by hash, and run nothing else", async () => {
    const page = htmlErrorPage(400, "Nope <b>", ["Because <script>alert(1)</script>"], {}, ["invalid_request: redirect_uri https://x.example/cb?a=<b>"]);
    const html = await page.text();
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1] as string;
    const csp = page.headers.get("content-security-policy") as string;
    expect(csp).toContain(`style-src 'sha256-${createHash("sha256").update(style).digest("base64")}'`);
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain("script-src");
    expect(html).not.toContain("<script>");
    expect(html).toContain("Nope &#60;b&#62;");
    expect(html).toContain("redirect_uri https://x.example/cb?a=&#60;b&#62;");
  });
});
