import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { addDays } from "../../src/contract/due-dates.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { browserSkipReason, launchBrowser } from "../helpers/browser.ts";
import { type SignedUp, signUp } from "../helpers/identity.ts";
import { workspaceSignIn } from "../helpers/workspace.ts";

if (browserSkipReason) console.warn(`skipping browser tests: ${browserSkipReason}`);

const row = (page: Page, title: string) =>
  page.locator("li.ws-todo", { has: page.locator(":scope > .ws-todo-row .ws-title", { hasText: new RegExp(`^${title}$`) }) });
// Tomorrow, or today should the test run across midnight UTC.
const TOMORROW = /^(Tomorrow|Today) 18:30$/;
const dueOn = (page: Page, title: string) => row(page, title).locator(":scope > .ws-todo-row .ws-due");

/** Issue 42 item 10: a due date set in the add and edit forms, on the row, sorted, and in Due soon. */
describe.skipIf(browserSkipReason !== null)("due dates in Chromium", () => {
  let browser: Browser;
  let app: TestApp;
  let owner: SignedUp;
  let teamId = "";
  let setId = "";

  beforeAll(async () => {
    browser = await launchBrowser();
    app = await startApp({ host: "localhost" });
    owner = await signUp(app, "dana", { name: "Dana" });
    teamId = (await owner.browser.json("POST", "/api/oauth/me/teams", { name: "Flat" })).data.team.id;
    await workspaceSignIn(app, owner);
    setId = (await owner.browser.json("POST", `/api/teams/${teamId}/sets`, { name: "Bills" })).data.set.id;
    for (const title of ["Call plumber", "Buy milk"])
      expect((await owner.browser.json("POST", `/api/teams/${teamId}/sets/${setId}/todos`, { title })).status).toBe(201);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it("sets a due date when adding and when editing, shows it on the row (overdue in words), sorts by it, and lists it in Due soon", async () => {
    const context = await browser.newContext();
    await context.addCookies([...owner.browser.cookies].map(([name, value]) => ({ name, value, url: app.url })));
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    const problems: string[] = [];
    page.on("pageerror", (e) => problems.push(e.message));
    try {
      // The team's zone is UTC (the default), so "today" is UTC's date.
      const today = new Date().toISOString().slice(0, 10);
      await page.goto(`${app.url}/w/${teamId}/sets/${setId}`);
      await page.getByRole("heading", { name: "Bills", level: 1 }).waitFor();

      // Adding: the date beside New todo goes with the next todo, then empties.
      const addDue = page.getByRole("group", { name: "Due date of the new todo" });
      await addDue.getByLabel("Due", { exact: true }).fill(addDays(today, 1));
      await addDue.getByLabel("Due time (optional)").fill("18:30");
      const add = page.getByLabel("New todo", { exact: true });
      await add.fill("Pay rent");
      await add.press("Enter");
      await dueOn(page, "Pay rent").getByText(TOMORROW).waitFor();
      expect(await addDue.getByLabel("Due", { exact: true }).inputValue()).toBe("");

      // Editing: Edit opens the title and the due fields; a date in the past reads as overdue, in words.
      await row(page, "Call plumber").getByRole("button", { name: "Edit" }).click();
      const editDue = page.getByRole("group", { name: "Due date of Call plumber" });
      await editDue.getByLabel("Due", { exact: true }).fill(addDays(today, -3));
      await page.locator("li.ws-todo", { has: editDue }).locator(":scope > .ws-todo-row .ws-due").getByText("Overdue:").waitFor();
      await page.getByLabel("Title of Call plumber").press("Escape");
      await editDue.waitFor({ state: "detached" });
      await dueOn(page, "Call plumber").getByText("Overdue:").waitFor();
      expect(await dueOn(page, "Buy milk").count()).toBe(0);
      // A screen reader arriving on the row hears its due: the row is described by the due's label.
      const described = (title: string) =>
        page.getByRole("treeitem", { name: title, exact: true }).evaluate((li) => {
          const id = li.getAttribute("aria-describedby");
          return id ? (document.getElementById(id)?.textContent ?? null) : null;
        });
      expect(await described("Call plumber")).toStartWith("Overdue:");
      expect(await described("Buy milk")).toBeNull();

      // It was saved: a reload shows the same.
      await page.reload();
      await dueOn(page, "Call plumber").getByText("Overdue:").waitFor();
      const titles = () => page.locator('[role="tree"][aria-label="Todos"] > li.ws-todo > .ws-todo-row .ws-title').allTextContents();
      expect(await titles()).toEqual(["Call plumber", "Buy milk", "Pay rent"]);
      await page.getByLabel("Sort todos", { exact: true }).selectOption("due");
      await page.waitForFunction(
        () => document.querySelector('[role="tree"][aria-label="Todos"] > li.ws-todo:last-child .ws-title')?.textContent === "Buy milk",
      );
      expect(await titles()).toEqual(["Call plumber", "Pay rent", "Buy milk"]);

      // Due soon, beside Assigned to me: overdue first, the undated todo not at all.
      await page.getByRole("navigation", { name: "Workspace" }).getByRole("link", { name: "Due soon" }).click();
      await page.getByRole("heading", { name: "Due soon", level: 1 }).waitFor();
      const overdue = page.getByRole("region", { name: "Overdue" });
      const coming = page.getByRole("region", { name: "Next seven days" });
      await overdue.getByRole("link", { name: "Call plumber" }).waitFor();
      await coming.getByRole("link", { name: "Pay rent" }).waitFor();
      expect(await coming.getByText(TOMORROW).count()).toBe(1);
      expect(await page.getByRole("link", { name: "Buy milk" }).count()).toBe(0);
      expect(new URL(page.url()).pathname).toBe(`/w/${teamId}/due-soon`);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
