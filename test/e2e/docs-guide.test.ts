import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { startApp, type TestApp } from "../helpers/app.ts";
import { browserSkipReason, launchBrowser } from "../helpers/browser.ts";
import { signUp } from "../helpers/identity.ts";
import { tempDir } from "../helpers/temp.ts";
import { shot } from "./flows.ts";
import { lookAt } from "./page-checks.ts";

if (browserSkipReason) console.warn(`skipping browser tests: ${browserSkipReason}`);

/*
 * Issue 42, items 17 and 18 in Chromium: a fresh instance's /docs is Cairn's own guide, read page
 * after page with previous/next and "On this page"; an admin hides it from Admin → Documentation,
 * and the empty site is a centred page with the way back (and, for the admin, the way to add a
 * source); a folder source without its docs folder is refused with the reason on the form.
 */
describe.skipIf(browserSkipReason !== null)("the built-in guide and the docs site's way around, in Chromium", () => {
  let browser: Browser;
  let app: TestApp;
  let adminContext: BrowserContext;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    browser = await launchBrowser();
    app = await startApp();
    const admin = await signUp(app, "ada");
    adminContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await adminContext.addCookies([...admin.browser.cookies].map(([name, value]) => ({ name, value, url: app.url })));
    page = await adminContext.newPage();
    page.on("pageerror", (e) => errors.push(e.message));
    page.on("console", (m) => {
      if (m.type() === "error") errors.push(m.text());
    });
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it("opens the guide at /docs, its home page first in the sidebar", async () => {
    await page.goto(`${app.url}/docs`);
    await page.waitForURL(`${app.url}/docs/guide/`);
    await page.getByRole("heading", { level: 1, name: "Welcome to Cairn" }).waitFor();
    const sidebar = page.getByRole("navigation", { name: "Pages" });
    expect((await sidebar.getByRole("link").allTextContents())[0]).toBe("Welcome");
    expect(await page.getByRole("navigation", { name: "Repositories" }).getByRole("link").allTextContents()).toEqual(["Cairn guide"]);
  });

  it("reads on with Next and back with Previous, and jumps to a section from On this page", async () => {
    const pager = page.getByRole("navigation", { name: "Previous and next" });
    await pager.getByRole("link", { name: /Next/ }).click();
    await page.waitForURL(`${app.url}/docs/guide/setup`);
    await page.getByRole("heading", { level: 1, name: "Install and set up" }).waitFor();
    const toc = page.getByRole("navigation", { name: "On this page" });
    await toc.getByRole("link", { name: "The setup wizard" }).click();
    await page.waitForURL(`${app.url}/docs/guide/setup#the-setup-wizard`);
    await shot(page, "docs-guide-setup");
    await pager.getByRole("link", { name: /Previous/ }).click();
    await page.waitForURL(`${app.url}/docs/guide/`);
    // The way back to the rest of Cairn.
    await page.getByRole("link", { name: "Back to Cairn" }).click();
    await page.waitForURL(`${app.url}/`);
  });

  it("lets the admin hide the guide under Admin → Documentation; /docs is then an empty page with the way to add a source", async () => {
    await page.goto(`${app.url}/admin#documentation`);
    const list = page.getByRole("list", { name: "Documentation sources" });
    await list.getByText("Cairn guide", { exact: true }).waitFor();
    // Built in: hidden or shown, neither edited nor removed.
    expect(await list.getByRole("button", { name: "Remove Cairn guide" }).count()).toBe(0);
    await list.getByRole("button", { name: "Hide Cairn guide" }).click();
    await page.getByText("Cairn guide hidden from the site.").waitFor();
    await list.getByRole("button", { name: "Show Cairn guide" }).waitFor();

    await page.goto(`${app.url}/docs`);
    await page.getByRole("heading", { level: 1, name: "No documentation yet" }).waitFor();
    const look = await lookAt(page);
    expect(look.lowContrast).toEqual([]);
    // Centred, not squeezed into a sidebar's column.
    const box = await page.locator("main").boundingBox();
    expect(box && Math.abs(box.x + box.width / 2 - 640)).toBeLessThan(20);
    expect(box?.width ?? 0).toBeGreaterThan(400);
    await shot(page, "docs-empty-admin");
    await page.getByRole("link", { name: "Add a source" }).click();
    await page.waitForURL(`${app.url}/admin#documentation`);
  });

  it("shows a signed-out visitor the empty page without the admin's link", async () => {
    const visitor = await (await browser.newContext()).newPage();
    await visitor.goto(`${app.url}/docs`);
    await visitor.getByRole("heading", { level: 1, name: "No documentation yet" }).waitFor();
    expect(await visitor.getByRole("link", { name: "Add a source" }).count()).toBe(0);
    await visitor.getByRole("link", { name: "Back to Cairn" }).waitFor();
    await visitor.close();
  });

  it("refuses a folder without its docs folder on the add form, with the reason", async () => {
    const root = tempDir("cairn-docs-e2e-");
    mkdirSync(join(root, "pages"), { recursive: true });
    writeFileSync(join(root, "pages/index.md"), "# Home\n");
    await page.goto(`${app.url}/admin#documentation`);
    const card = page.locator("#documentation");
    await card.getByLabel("Kind", { exact: true }).selectOption("local");
    await card.getByLabel("Name", { exact: true }).fill("Handbook");
    await card.getByLabel("Slug", { exact: true }).fill("handbook");
    await card.getByLabel("Folder", { exact: true }).fill(root);
    await card.getByRole("button", { name: "Add source" }).click();
    await card.getByText(`${root} has no folder "docs"`, { exact: false }).waitFor();
    // With the folder that holds the pages, it is added, and /docs leads to it (the guide is hidden).
    await card.getByLabel("Docs folder").fill("pages");
    await card.getByRole("button", { name: "Add source" }).click();
    await page.getByRole("list", { name: "Documentation sources" }).getByText("Handbook", { exact: true }).waitFor();
    await page.goto(`${app.url}/docs`);
    await page.waitForURL(`${app.url}/docs/handbook/`);
  });

  it("raised no page errors", () => {
    // The refused add answers 400 (the console reports any failed request): that one is expected.
    expect(errors.filter((e) => !e.includes("status of 400"))).toEqual([]);
  });
});
