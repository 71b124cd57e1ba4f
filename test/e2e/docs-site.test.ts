import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { startApp, type TestApp } from "../helpers/app.ts";
import { browserSkipReason, launchBrowser } from "../helpers/browser.ts";
import { signUp } from "../helpers/identity.ts";
import { tempDir } from "../helpers/temp.ts";
import { shot } from "./flows.ts";

if (browserSkipReason) console.warn(`skipping browser tests: ${browserSkipReason}`);

/** A docs folder with two locales: French lacks the setup page (it falls back to English). */
function docsFolder(): string {
  const root = tempDir("cairn-docs-");
  const write = (path: string, text: string) => {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  write(
    "docs/en/index.md",
    "---\ntitle: Welcome\nsidebar_position: 1\n---\n\n# Welcome\n\nStart with the [setup](guide/setup.md).\n\n:::tip Pro tip\nKeep one binary.\n:::\n",
  );
  write("docs/en/guide/setup.md", "# Setup\n\n## Install\n\nDownload the binary and run it.\n\n```ts\nconst port: number = 3000;\n```\n");
  write("docs/en/guide/_category_.json", '{"label":"Guide","position":2}');
  write("docs/fr/index.md", "# Bienvenue\n\nCommencez par l'installation.\n");
  return root;
}

describe.skipIf(browserSkipReason !== null)("the docs site in Chromium", () => {
  let browser: Browser;
  let app: TestApp;
  let page: Page;
  let errors: string[];
  const folder = docsFolder();

  beforeAll(async () => {
    browser = await launchBrowser();
    app = await startApp();
    const admin = await signUp(app, "ada");
    const context = await browser.newContext();
    await context.addCookies([...admin.browser.cookies].map(([name, value]) => ({ name, value, url: app.url })));
    page = await context.newPage();
    errors = [];
    page.on("pageerror", (e) => errors.push(e.message));
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it("an admin adds a folder as a source on the admin page", async () => {
    await page.goto(`${app.url}/admin#documentation`);
    // The admin page has other forms with a Kind, Name and Slug (sign-in providers): this card's.
    const card = page.locator("#documentation");
    await card.getByLabel("Kind", { exact: true }).selectOption("local");
    await card.getByLabel("Name", { exact: true }).fill("Cairn");
    await card.getByLabel("Slug", { exact: true }).fill("cairn");
    await card.getByLabel("Folder", { exact: true }).fill(folder);
    await card.getByLabel("Locales (optional)").fill("en, fr");
    await card.getByRole("button", { name: "Add source" }).click();
    await page.getByRole("list", { name: "Documentation sources" }).getByText("Cairn", { exact: true }).waitFor();
    expect(await page.getByRole("textbox", { name: "Webhook URL" }).inputValue()).toBe(`${app.url}/api/webhook`);
    await shot(page, "admin-docs");
  });

  it("edits the source in a dialog and empties its cache with Refresh now", async () => {
    await page.getByRole("button", { name: "Edit Cairn" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Name", { exact: true }).fill("Cairn handbook");
    await dialog.getByRole("button", { name: "Save" }).click();
    const list = page.getByRole("list", { name: "Documentation sources" });
    await list.getByText("Cairn handbook", { exact: true }).waitFor();
    await page.getByRole("button", { name: "Refresh Cairn handbook now" }).click();
    await page.getByText("Cairn handbook: cache emptied; pages are read again from the source.").waitFor();
  });

  it("shows the home page with its sidebar, follows a link, and highlights code", async () => {
    // /docs itself opens the built-in guide, the first source: this source is at its slug.
    await page.goto(`${app.url}/docs/cairn`);
    await page.waitForURL(`${app.url}/docs/cairn/en/`);
    await page.getByRole("heading", { level: 1, name: "Welcome" }).waitFor();
    const sidebar = page.getByRole("navigation", { name: "Pages" });
    expect(await sidebar.locator("a, .folder").allTextContents()).toEqual(["Welcome", "Guide", "Setup"]);
    expect(await page.locator(".admonition-tip .admonition-title").textContent()).toBe("Pro tip");
    await page.getByRole("main").getByRole("link", { name: "setup", exact: true }).click();
    await page.waitForURL(`${app.url}/docs/cairn/en/guide/setup`);
    expect(await sidebar.locator('[aria-current="page"]').textContent()).toBe("Setup");
    expect(await page.locator("pre code .hljs-keyword").first().textContent()).toBe("const");
    expect(await page.getByRole("navigation", { name: "On this page" }).getByRole("link", { name: "Install" }).getAttribute("href")).toBe("#install");
    await shot(page, "docs-page");
  });

  it("switches language, and says when a page falls back to the default one", async () => {
    await page.getByRole("navigation", { name: "Language" }).getByRole("link", { name: "français" }).click();
    await page.waitForURL(`${app.url}/docs/cairn/fr/guide/setup`);
    expect(await page.getByRole("note").textContent()).toContain("not available in français");
    expect(await page.locator("html").getAttribute("lang")).toBe("fr");
    await page.getByRole("navigation", { name: "Pages" }).getByRole("link", { name: "Bienvenue" }).click();
    await page.getByRole("heading", { level: 1, name: "Bienvenue" }).waitFor();
  });

  it("searches with the search box and shows marked snippets", async () => {
    await page.goto(`${app.url}/docs/cairn/en/`);
    await page.getByRole("searchbox", { name: "Search" }).fill("downl");
    await page.getByRole("button", { name: "Search" }).click();
    await page.waitForURL((url) => url.pathname === "/docs/cairn/_search");
    const results = page.locator(".results li");
    expect(await results.count()).toBe(1);
    expect(await results.getByRole("link").textContent()).toBe("Setup");
    // The last word is a prefix: "downl" finds "Download", marked in the snippet.
    expect(await results.locator("mark").first().textContent()).toBe("Download");
    await shot(page, "docs-search");
    await page.getByRole("searchbox", { name: "Search" }).fill("zebra");
    await page.getByRole("button", { name: "Search" }).click();
    await page.getByText("No page matches zebra.").waitFor();
  });

  it("follows the system's dark mode, as the rest of Cairn does", async () => {
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    await page.emulateMedia({ colorScheme: "light" });
    await page.goto(`${app.url}/docs/cairn/en/`);
    expect(await background()).toBe("rgb(246, 247, 249)");
    await page.emulateMedia({ colorScheme: "dark" });
    expect(await background()).toBe("rgb(18, 22, 28)");
    await shot(page, "docs-dark");
  });

  it("raised no page errors", () => {
    expect(errors).toEqual([]);
  });
});
