import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { startApp, type TestApp } from "../helpers/app.ts";
import { browserSkipReason, launchBrowser } from "../helpers/browser.ts";
import { PASSWORD, type SignedUp, signUp } from "../helpers/identity.ts";
import { ensureSetup } from "../helpers/workspace.ts";
import { openPage, openWorkspace, shot, signInWithPassword } from "./flows.ts";

if (browserSkipReason) console.warn(`skipping browser tests: ${browserSkipReason}`);

const todo = (page: Page, title: string) =>
  page.locator("li.ws-todo", { has: page.locator(":scope > .ws-todo-row .ws-title", { hasText: new RegExp(`^${title}$`) }) });

describe.skipIf(browserSkipReason !== null)("the workspace in Chromium", () => {
  let browser: Browser;
  let app: TestApp;
  let alice: SignedUp;
  let teamId: string;
  let context: BrowserContext;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    browser = await launchBrowser();
    app = await startApp({ host: "localhost" });
    alice = await signUp(app, "alice", { name: "Alice Adams" });
    teamId = (await alice.browser.json("POST", "/api/oauth/me/teams", { name: "Household" })).data.team.id;
    await ensureSetup(app);
    ({ context, page, errors } = await openPage(browser));
    await signInWithPassword(page, app, "alice", PASSWORD);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it("signs in through the IdP, creates a set, adds and nests todos, completes one; a second page follows live", async () => {
    await openWorkspace(page, app);
    expect(page.url()).toContain(`/w/${teamId}/sets/`);
    // The team's default set was made on first visit.
    await page.getByRole("navigation", { name: "Workspace" }).getByRole("link", { name: /Inbox/ }).waitFor();

    await page.getByLabel("New set name").fill("Groceries");
    await page.getByRole("button", { name: "Add set" }).click();
    await page.getByRole("heading", { name: "Groceries" }).waitFor();
    const setPath = new URL(page.url()).pathname;
    expect(setPath).toMatch(/\/sets\/[0-9a-f-]{36}$/);

    const add = page.getByLabel("New todo", { exact: true });
    for (const title of ["Milk", "Bread"]) {
      await add.fill(title);
      await add.press("Enter");
      await todo(page, title).waitFor();
    }
    await todo(page, "Milk").getByRole("button", { name: "Add sub-todo" }).click();
    await page.getByLabel("New sub-todo of Milk").fill("Oat milk");
    await page.getByLabel("New sub-todo of Milk").press("Enter");
    await page.getByRole("group", { name: "Sub-todos of Milk" }).getByText("Oat milk").waitFor();

    // A second window on the same set.
    const other = await context.newPage();
    await other.goto(`${app.url}${setPath}`);
    await other.getByRole("heading", { name: "Groceries" }).waitFor();
    await other.getByText("Live", { exact: false }).first().waitFor();

    await page.getByLabel("Complete Bread").check();
    await other.waitForFunction(() => (document.querySelector("input[aria-label='Complete Bread']") as HTMLInputElement | null)?.checked === true);

    await add.fill("Eggs");
    await add.press("Enter");
    await todo(other, "Eggs").waitFor();
    // The sidebar counts follow too: 1 of 3 top-level todos done.
    await other
      .getByRole("link", { name: /Groceries/ })
      .getByText("1/3")
      .waitFor();

    // And back: the second window edits, the first sees it.
    await todo(other, "Eggs").getByRole("button", { name: "Edit" }).click();
    await other.getByLabel("Title of Eggs").fill("Free-range eggs");
    await other.getByLabel("Title of Eggs").press("Enter");
    await todo(page, "Free-range eggs").waitFor();
    await shot(page, "workspace-set");

    const list = await page.evaluate(async (path) => (await (await fetch(path)).json()).todos, `/api/teams/${teamId}/sets/${setPath.split("/").pop()}/todos`);
    expect(list.map((t: { title: string; completed: boolean; parentId: string | null }) => [t.title, t.completed, t.parentId !== null]).sort()).toEqual([
      ["Bread", true, false],
      ["Free-range eggs", false, false],
      ["Milk", false, false],
      ["Oat milk", false, true],
    ]);
    await other.close();
    expect(errors).toEqual([]);
  });
  it("imports a Markdown file into a set and exports it back unchanged", async () => {
    const markdown = "# Packing\n\n- [ ] Passport\n  - [x] Visa\n  - [ ] Photocopies\n- [x] Charger\n- [ ] Snacks\n";
    await page.getByLabel("New set name").fill("Packing");
    await page.getByRole("button", { name: "Add set" }).click();
    await page.getByRole("heading", { name: "Packing" }).waitFor();

    await page.getByRole("button", { name: "Import", exact: true }).click();
    const importing = page.getByRole("dialog", { name: "Import todos" });
    await importing.getByLabel("Import file").setInputFiles({ name: "packing.md", mimeType: "text/markdown", buffer: Buffer.from(markdown) });
    await importing.getByLabel("Content").and(page.locator("textarea")).waitFor();
    expect(await importing.locator("textarea").inputValue()).toBe(markdown);
    await importing.getByRole("button", { name: "Import", exact: true }).click();
    await importing.waitFor({ state: "hidden" });
    await page.getByRole("group", { name: "Sub-todos of Passport" }).getByText("Photocopies").waitFor();
    expect(await page.getByLabel("Complete Visa").isChecked()).toBe(true);
    await page
      .getByRole("navigation", { name: "Workspace" })
      .getByRole("link", { name: /Packing/ })
      .getByText("1/3")
      .waitFor();

    await page.getByRole("button", { name: "Export", exact: true }).click();
    const exporting = page.getByRole("dialog", { name: "Export set" });
    await exporting.getByLabel("Format").selectOption("md");
    const content = exporting.getByLabel("Exported content");
    await page.waitForFunction(() => (document.querySelector("dialog[open] textarea") as HTMLTextAreaElement | null)?.value.includes("Snacks"));
    expect((await content.inputValue()).trim()).toBe(markdown.trim());
    await shot(page, "workspace-export");
    await exporting.getByRole("button", { name: "Close" }).click();
    expect(errors).toEqual([]);
  });
  it("comments, assigns, moves and deletes through the action bar; Assigned to me lists the open ones", async () => {
    // The action bar is the user's choice (spec 3 section 2.4 action_bar).
    const bar = ["assign_self", "assign", "comment", "move", "delete"];
    await page.evaluate(async (action_bar) => {
      await fetch("/api/user/settings", { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify({ action_bar }) });
    }, bar);
    await page
      .getByRole("navigation", { name: "Workspace" })
      .getByRole("link", { name: /Groceries/ })
      .click();
    await page.getByRole("heading", { name: "Groceries" }).waitFor();
    // Preferences are read when the workspace opens.
    await page.reload();
    await page.getByRole("heading", { name: "Groceries" }).waitFor();
    const toolbar = page.getByRole("toolbar", { name: "Actions for Milk" });
    // The heading comes with the set; the rows come with its todos, a moment later.
    await toolbar.waitFor();
    expect(await toolbar.locator("button").evaluateAll((buttons) => buttons.map((b) => b.getAttribute("data-action")))).toEqual(bar);

    await toolbar.getByRole("button", { name: "Comment", exact: true }).click();
    await page.getByLabel("New comment").fill("The 1 litre one");
    await page.getByLabel("New comment").press("Enter");
    await page.getByRole("list", { name: "Comments on Milk" }).getByText("The 1 litre one").waitFor();
    await page.getByRole("button", { name: "1 comment on Milk" }).waitFor();

    await todo(page, "Milk").locator(":scope > .ws-actions").getByRole("button", { name: "Assign me" }).click();
    await todo(page, "Milk").locator(":scope > .ws-todo-row").getByLabel("Assigned to Alice Adams").waitFor();
    await todo(page, "Free-range eggs").locator(":scope > .ws-actions").getByRole("button", { name: "Assign", exact: true }).click();
    const assign = page.getByRole("dialog", { name: "Assign “Free-range eggs”" });
    await assign.getByLabel(/Alice Adams/).check();
    await assign.getByRole("button", { name: "Save" }).click();
    await todo(page, "Free-range eggs").locator(":scope > .ws-todo-row").getByLabel("Assigned to Alice Adams").waitFor();

    await page.getByRole("link", { name: "Assigned to me" }).click();
    await page.getByRole("heading", { name: "Assigned to me" }).waitFor();
    await page.getByRole("link", { name: "Milk" }).waitFor();
    // A click, not check(): the row leaves the view as soon as it is completed.
    await page.getByLabel("Complete Free-range eggs").click();
    await page.getByRole("link", { name: "Free-range eggs" }).waitFor({ state: "detached" });

    await page
      .getByRole("navigation", { name: "Workspace" })
      .getByRole("link", { name: /Groceries/ })
      .click();
    await todo(page, "Milk").locator(":scope > .ws-actions").getByRole("button", { name: "Move" }).click();
    const move = page.getByRole("dialog", { name: "Move “Milk”" });
    await move.getByLabel("To set").selectOption({ label: "Inbox" });
    await move.getByRole("button", { name: "Move" }).click();
    await todo(page, "Milk").waitFor({ state: "detached" });
    await page.getByRole("navigation", { name: "Workspace" }).getByRole("link", { name: /Inbox/ }).click();
    await page.getByRole("group", { name: "Sub-todos of Milk" }).getByText("Oat milk").waitFor();

    await todo(page, "Milk").locator(":scope > .ws-actions").getByRole("button", { name: "Delete" }).click();
    const confirm = page.getByRole("dialog", { name: "Delete this todo?" });
    await confirm.getByText("its 1 sub-todos").waitFor();
    await confirm.getByRole("button", { name: "Delete" }).click();
    await todo(page, "Milk").waitFor({ state: "detached" });
    await page.getByText("Nothing here yet.").waitFor();
    expect(errors).toEqual([]);
  });

  it("reorders sets by keyboard, and follows changes over SSE when the user prefers it", async () => {
    const sets = page.getByRole("list", { name: "Sets" });
    const names = async () => (await sets.locator("li .grow").allTextContents()).map((t) => t.trim());
    expect(await names()).toEqual(["Inbox", "Groceries", "Packing"]);
    await sets.locator("li", { hasText: "Packing" }).focus();
    await page.keyboard.press("Alt+ArrowUp");
    await page.waitForFunction(() => [...document.querySelectorAll("[aria-label='Sets'] li .grow")].map((e) => e.textContent)[1] === "Packing");
    expect(await names()).toEqual(["Inbox", "Packing", "Groceries"]);

    const saved = await page.evaluate(async () => {
      const body = { realtime_transport: "sse", detailed_status: true, workspace_favicon: true };
      const res = await fetch("/api/user/settings", { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
      return (await res.json()).settings;
    });
    expect(saved).toMatchObject({ realtime_transport: "sse", detailed_status: true, workspace_favicon: true });
    await page.reload();
    await page.getByText("Live (SSE)").waitFor();
    // detailed_status: counts in the header; workspace_favicon: the tab icon is the workspace's initial.
    await page
      .getByTestId("set-status")
      .getByText(/\d+ done, \d+ remaining/)
      .waitFor();
    await page.waitForFunction(() => document.querySelector<HTMLLinkElement>("link[rel='icon']")?.href.startsWith("data:image/svg+xml"));
    const icon = await page.evaluate(() => decodeURIComponent(document.querySelector<HTMLLinkElement>("link[rel='icon']")!.href));
    expect(icon).toContain(">H</text>");
    const other = await context.newPage();
    await other.goto(page.url());
    await other.getByText("Live (SSE)").waitFor();
    await page.getByLabel("New todo", { exact: true }).fill("Sent over SSE");
    await page.getByLabel("New todo", { exact: true }).press("Enter");
    await todo(other, "Sent over SSE").waitFor();

    // Todos reorder among their siblings the same way; the other window follows.
    await page.getByLabel("New todo", { exact: true }).fill("Goes first");
    await page.getByLabel("New todo", { exact: true }).press("Enter");
    await todo(other, "Goes first").waitFor();
    await todo(page, "Goes first").focus();
    await page.keyboard.press("Alt+ArrowUp");
    const firstTitle = (p: Page) => p.waitForFunction(() => document.querySelector("[aria-label='Todos'] > li .ws-title")?.textContent === "Goes first");
    await firstTitle(page);
    await firstTitle(other);
    await other.close();

    // `auto`: WebSocket first; where it cannot connect (a proxy without upgrades), SSE.
    await page.evaluate(() =>
      fetch("/api/user/settings", { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify({ realtime_transport: "auto" }) }),
    );
    const noSockets = await context.newPage();
    await noSockets.addInitScript(() => {
      (window as any).WebSocket = class {
        onclose: ((e: unknown) => void) | null = null;
        constructor() {
          setTimeout(() => this.onclose?.({ code: 1006 }), 10);
        }
        close() {}
      };
    });
    await noSockets.goto(page.url());
    await noSockets.getByText("Live (SSE)").waitFor();
    await page.reload();
    await page.getByText("Live (WebSocket)").waitFor();
    await noSockets.close();
    expect(errors).toEqual([]);
  });

  it("shows a todo's actions where the pointer or the keyboard is, and lists the shortcuts on ?", async () => {
    const opacity = (title: string) =>
      todo(page, title)
        .locator(":scope > .ws-actions")
        .evaluate((bar) => getComputedStyle(bar).opacity);
    const settles = (title: string, value: string) =>
      page.waitForFunction(
        ([t, v]) =>
          [...document.querySelectorAll("li.ws-todo")].some(
            (li) =>
              li.querySelector(":scope > .ws-todo-row .ws-title")?.textContent === t &&
              getComputedStyle(li.querySelector(":scope > .ws-actions")!).opacity === v,
          ),
        [title, value],
      );
    await page.mouse.move(0, 0);
    await settles("Goes first", "0");
    await todo(page, "Goes first").locator(":scope > .ws-todo-row").hover();
    await settles("Goes first", "1");
    expect(await opacity("Sent over SSE")).toBe("0");
    // The keyboard shows them too: focus inside the row is enough.
    await page.mouse.move(0, 0);
    await todo(page, "Sent over SSE").getByRole("checkbox").focus();
    await settles("Sent over SSE", "1");
    await settles("Goes first", "0");

    await page.keyboard.press("?");
    const help = page.getByRole("dialog", { name: "Keyboard shortcuts" });
    await help.getByText("Move it up").waitFor();
    await page.keyboard.press("Escape");
    await help.waitFor({ state: "hidden" });
    await page.getByRole("button", { name: "Keyboard shortcuts" }).click();
    await help.waitFor();
    await help.getByRole("button", { name: "Close" }).click();
    await help.waitFor({ state: "hidden" });
    // Typed into a field, ? is text; N goes to New todo from anywhere else.
    const add = page.getByLabel("New todo", { exact: true });
    await page.getByRole("heading", { level: 1 }).click();
    await page.keyboard.press("n");
    expect(await add.evaluate((input) => input === document.activeElement)).toBe(true);
    await page.keyboard.type("Why?");
    expect(await add.inputValue()).toBe("Why?");
    expect(await help.isVisible()).toBe(false);
    await add.fill("");
    expect(errors).toEqual([]);
  });
});
