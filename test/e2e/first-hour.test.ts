import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { startApp, type TestApp } from "../helpers/app.ts";
import { browserSkipReason, launchBrowser } from "../helpers/browser.ts";
import { PASSWORD, signUp } from "../helpers/identity.ts";
import { ensureSetup } from "../helpers/workspace.ts";
import { openPage, openWorkspace, shot, signInWithPassword } from "./flows.ts";

// Issue 17: what a new user meets in the first hour, in a real browser.
if (browserSkipReason) console.warn(`skipping browser tests: ${browserSkipReason}`);

describe.skipIf(browserSkipReason !== null)("the first hour in Chromium", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("setup with a team picked in the access step ends in a working workspace, which its owner can change later", async () => {
    const app = await startApp({ host: "localhost" });
    try {
      const { page, errors } = await openPage(browser);
      await page.goto(`${app.url}/setup`);
      await page.getByLabel("Username").fill("root");
      await page.getByLabel("Email").fill("root@example.com");
      await page.getByLabel("Password").fill(PASSWORD);
      await page.getByRole("button", { name: "Create account" }).click();
      await page.getByRole("heading", { name: "Identity provider" }).waitFor();
      await page.getByRole("button", { name: "Next" }).click(); // this instance, the default

      // No raw id boxes: the team is made and picked right here.
      await page.getByLabel("Or create a team for it").fill("Household");
      await page.getByRole("button", { name: "Create team" }).click();
      const who = page.getByLabel("Who may sign in to the workspace?");
      await who.locator("option:checked", { hasText: "Members of Household" }).waitFor({ state: "attached" });
      await page.getByLabel("Owners of Household").check();
      await page.getByRole("button", { name: "Next" }).click();
      await page.getByText("Members of Household").waitFor();
      await shot(page, "first-hour-review");
      await page.getByRole("button", { name: "Finish setup" }).click();
      await page.getByRole("heading", { name: "Cairn is ready" }).waitFor();

      const config = (await app.json("GET", "/api/init/config")).data.config;
      const team = (await app.ctx.db.$client.query("SELECT id FROM teams WHERE name = 'Household'").get()) as { id: string };
      expect(config).toMatchObject({ idp_base_url: app.url, allowed_team_id: team.id, owner_team_id: team.id, use_pkce: true });
      expect(config.idp_client_id).not.toBe("");

      // The workspace works for a member of that team.
      await openWorkspace(page, app);
      expect(page.url()).toContain(`/w/${team.id}/sets/`);

      // Its owner changes the setup later from Settings, never from the database.
      await page.goto(`${app.url}/settings`);
      await page.getByRole("heading", { name: "Workspace connection" }).waitFor();
      await page.getByLabel("Who may sign in to the workspace?").selectOption({ label: "Everyone with an account on this Cairn" });
      await page.getByRole("button", { name: "Save" }).click();
      await page.getByText("Saved.").waitFor();
      expect((await app.json("GET", "/api/init/config")).data.config).toMatchObject({ allowed_team_id: "", idp_client_id: config.idp_client_id });
      // The team page shows the id people need elsewhere.
      await page.goto(`${app.url}/teams/${team.id}`);
      await page.getByText(team.id).waitFor();
      expect(errors).toEqual([]);
    } finally {
      await app.stop();
    }
  });

  it("opened at another address than CAIRN_ISSUER, says which one to open instead of failing", async () => {
    const app = await startApp({ host: "localhost" }); // the issuer says localhost; the server answers on 127.0.0.1 too
    try {
      const { page, errors } = await openPage(browser);
      const elsewhere = app.url.replace("localhost", "127.0.0.1");
      await page.goto(`${elsewhere}/setup`);
      await page.getByRole("heading", { name: "Open Cairn at its own address" }).waitFor();
      const text = await page.locator("main").textContent();
      expect(text).toContain(`You opened ${elsewhere}`);
      expect(text).toContain(`configured as ${app.url}`);
      // 127.0.0.1 reaches this machine only: other machines are sent to its network address (issue 42).
      expect(text).not.toContain(`CAIRN_ISSUER=${elsewhere}`);
      expect(text).toContain(`CAIRN_ISSUER=http://<server-ip>:${new URL(elsewhere).port}`);
      expect(await page.getByRole("link", { name: `Open ${app.url}` }).getAttribute("href")).toBe(`${app.url}/setup`);
      // Nothing was tried in the meantime: no account exists.
      expect((await app.json("GET", "/api/init/status")).data).toEqual({ configured: false });
      expect(errors).toEqual([]);
    } finally {
      await app.stop();
    }
  });

  describe("forms", () => {
    let app: TestApp;
    let page: Page;
    beforeAll(async () => {
      app = await startApp({ host: "localhost" });
      await signUp(app, "alice");
      await ensureSetup(app);
      ({ page } = await openPage(browser));
      await signInWithPassword(page, app, "alice", PASSWORD);
    });
    afterAll(() => app?.stop());

    it("three todos typed in a row with Enter are all added, in order, focus staying in the field", async () => {
      await openWorkspace(page, app);
      const add = page.getByLabel("New todo", { exact: true });
      await add.click();
      await page.keyboard.type("Butter\nJam\nBread\n");
      await page.locator("li.ws-todo").nth(2).waitFor();
      const titles = await page.locator("li.ws-todo .ws-title").allTextContents();
      expect(titles).toEqual(["Butter", "Jam", "Bread"]);
      expect(await add.evaluate((el) => el === document.activeElement)).toBe(true);
      expect(await add.inputValue()).toBe("");
    });

    it("a refused field receives focus and comes into view", async () => {
      await page.goto(`${app.url}/apps`);
      await page.getByRole("button", { name: "Register with custom settings" }).click();
      await page.getByLabel("App name").fill("Grafana");
      const uri = page.getByLabel("Redirect URI 1", { exact: true });
      await uri.fill("http://grafana.example.com/login/generic_oauth");
      await page.getByRole("button", { name: "Register app" }).click();
      await page
        .getByText("Grafana's address “http://grafana.example.com/login/generic_oauth” must start with https://, or be on this machine (localhost).")
        .waitFor();
      expect(await uri.evaluate((el) => el === document.activeElement)).toBe(true);
      expect(await uri.isVisible()).toBe(true);
    });
  });
});
