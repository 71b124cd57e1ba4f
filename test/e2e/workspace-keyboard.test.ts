import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { startApp, type TestApp } from "../helpers/app.ts";
import { browserSkipReason, launchBrowser } from "../helpers/browser.ts";
import { PASSWORD, signUp } from "../helpers/identity.ts";
import { ensureSetup } from "../helpers/workspace.ts";
import { addTodos, openPage, openWorkspace, shot, signInWithPassword } from "./flows.ts";
import { expectFocus, focused, rowStops } from "./keyboard.ts";

if (browserSkipReason) console.warn(`skipping browser tests: ${browserSkipReason}`);

const row = (page: Page, title: string) =>
  page.locator("li.ws-todo", { has: page.locator(":scope > .ws-todo-row .ws-title", { hasText: new RegExp(`^${title}$`) }) });
const treeitem = (page: Page, title: string) => page.getByRole("treeitem", { name: title, exact: true });
const action = (page: Page, title: string, name: string) => row(page, title).locator(":scope > .ws-actions").getByRole("button", { name, exact: true });
/** The titles of the top-level todos, in order. */
const ROOT_TITLES = "[aria-label='Todos'] > li.ws-todo > .ws-todo-row .ws-title";
const roots = (page: Page) => page.locator(ROOT_TITLES).allTextContents();
const rootsAre = (page: Page, titles: string[]) =>
  page.waitForFunction(({ selector, want }) => [...document.querySelectorAll(selector)].map((title) => title.textContent).join("|") === want, {
    selector: ROOT_TITLES,
    want: titles.join("|"),
  });

describe.skipIf(browserSkipReason !== null)("the todo list from the keyboard (issue 42)", () => {
  let browser: Browser;
  let app: TestApp;
  let page: Page;
  let errors: string[];
  let teamId: string;

  const newSet = async (name: string) => {
    await page.getByLabel("New set name").fill(name);
    await page.getByRole("button", { name: "Add set" }).click();
    await page.getByRole("heading", { name }).waitFor();
    return new URL(page.url()).pathname.split("/").pop() as string;
  };

  beforeAll(async () => {
    browser = await launchBrowser();
    app = await startApp({ host: "localhost" });
    await signUp(app, "kim", { name: "Kim Keys" });
    await ensureSetup(app);
    ({ page, errors } = await openPage(browser));
    await signInWithPassword(page, app, "kim", PASSWORD);
    await openWorkspace(page, app);
    teamId = new URL(page.url()).pathname.split("/")[2] as string;
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it("item 7, adding: New todo and a sub-todo field keep the focus for the next one; Add after hands it to the new todo", async () => {
    await newSet("Adding");
    const add = page.getByLabel("New todo", { exact: true });
    await page.getByRole("heading", { level: 1 }).click();
    await page.keyboard.press("n");
    await page.keyboard.type("Alpha\nBravo\nCharlie\n");
    await rootsAre(page, ["Alpha", "Bravo", "Charlie"]);
    await expectFocus(page, "field New todo");

    // Keys typed at once after Enter go into the sub-todo field, not to the page's shortcuts (where
    // "n" jumped to New todo and the rest made a stray top-level "uts").
    await action(page, "Alpha", "Add sub-todo").press("Enter");
    await expectFocus(page, "field New sub-todo of Alpha");
    await page.keyboard.type("Apples\nnuts\n");
    await page.waitForFunction(() => [...document.querySelectorAll(".ws-title")].some((t) => t.textContent?.endsWith("uts")));
    expect(await roots(page)).toEqual(["Alpha", "Bravo", "Charlie"]);
    await page.locator("[aria-label='Sub-todos of Alpha']").getByText("nuts", { exact: true }).waitFor();
    await expectFocus(page, "field New sub-todo of Alpha");
    expect(await add.inputValue()).toBe("");
    await page.keyboard.press("Escape");
    await expectFocus(page, "row Alpha");

    await action(page, "Bravo", "Add after").press("Enter");
    await expectFocus(page, "field New todo after Bravo");
    await page.keyboard.type("Bravo two\n");
    await rootsAre(page, ["Alpha", "Bravo", "Bravo two", "Charlie"]);
    await expectFocus(page, "row Bravo two");
    // Cancelled: back on the todo it was opened from.
    await action(page, "Charlie", "Add after").press("Enter");
    await expectFocus(page, "field New todo after Charlie");
    await page.keyboard.press("Escape");
    await expectFocus(page, "row Charlie");
    expect(errors).toEqual([]);
  });

  it("item 7, editing: a saved or cancelled edit leaves the focus on the todo", async () => {
    const setId = await newSet("Editing");
    await addTodos(page, teamId, setId, [["Charlie", null]]);
    await action(page, "Charlie", "Edit").press("Enter");
    await expectFocus(page, "field Title of Charlie");
    await page.getByLabel("Title of Charlie").fill("Charlie two");
    await page.keyboard.press("Enter");
    await row(page, "Charlie two").waitFor();
    await expectFocus(page, "row Charlie two");
    await action(page, "Charlie two", "Edit").press("Enter");
    await expectFocus(page, "field Title of Charlie two");
    await page.keyboard.press("Escape");
    await expectFocus(page, "row Charlie two");
    expect(errors).toEqual([]);
  });

  it("item 7, reordering: the todo moved by Alt+Arrow keeps the focus, so the next Alt+Arrow moves it again", async () => {
    const setId = await newSet("Reordering");
    await addTodos(page, teamId, setId, [
      ["One", null],
      ["Two", null],
      ["Three", null],
    ]);
    await row(page, "Three").focus();
    await page.keyboard.press("Alt+ArrowUp");
    await rootsAre(page, ["One", "Three", "Two"]);
    await expectFocus(page, "row Three");
    await page.keyboard.press("Alt+ArrowUp");
    await rootsAre(page, ["Three", "One", "Two"]);
    await expectFocus(page, "row Three");
    expect(errors).toEqual([]);
  });

  it("item 7, moving and deleting: focus goes to the next todo, else the previous, else New todo", async () => {
    await newSet("Elsewhere");
    const setId = await newSet("Deleting");
    await addTodos(page, teamId, setId, [
      ["Alpha", null],
      ["Apples", "Alpha"],
      ["nuts", "Alpha"],
      ["Bravo", null],
      ["Charlie", null],
      ["Delta", null],
    ]);
    await row(page, "Delta").waitFor();
    await action(page, "Bravo", "Move").press("Enter");
    const move = page.getByRole("dialog", { name: "Move “Bravo”" });
    await move.getByLabel("To set").selectOption({ label: "Elsewhere" });
    await move.getByRole("button", { name: "Move" }).press("Enter");
    await rootsAre(page, ["Alpha", "Charlie", "Delta"]);
    await expectFocus(page, "row Charlie");

    const remove = async (title: string) => {
      await action(page, title, "Delete").press("Enter");
      await page.getByRole("dialog", { name: "Delete this todo?" }).getByRole("button", { name: "Delete" }).press("Enter");
      await row(page, title).waitFor({ state: "detached" });
    };
    await remove("Apples");
    await expectFocus(page, "row nuts");
    await remove("Delta");
    await expectFocus(page, "row Charlie");
    await remove("Alpha");
    await expectFocus(page, "row Charlie");
    await remove("Charlie");
    await expectFocus(page, "field New todo");
    expect(errors).toEqual([]);
  });

  it("item 9: the list is one Tab stop; arrows, Home and End move between todos; Tab enters a row, Escape leaves it", async () => {
    const setId = await newSet("Tabs");
    await addTodos(page, teamId, setId, [
      ["One", null],
      ["Two", null],
      ["Two a", "Two"],
      ["Two b", "Two"],
      ["Three", null],
      ["Four", null],
    ]);
    await row(page, "Four").waitFor();
    const tree = page.getByRole("tree", { name: "Todos" });
    expect(await tree.getByRole("treeitem").count()).toBe(6);
    expect(await treeitem(page, "Two a").getAttribute("aria-level")).toBe("2");
    expect(await treeitem(page, "Two").getAttribute("aria-expanded")).toBe("true");
    expect(await treeitem(page, "One").getAttribute("aria-expanded")).toBeNull();
    expect(await page.getByRole("group", { name: "Sub-todos of Two" }).getByRole("treeitem").count()).toBe(2);

    // From New todo (and whatever tools follow it), Tab reaches the first row, then only that row's
    // checkbox and actions, then leaves the list.
    const inList = () => page.evaluate(() => document.activeElement?.closest("[aria-label='Todos']") != null);
    await page.getByLabel("New todo", { exact: true }).focus();
    for (let i = 0; i < 20 && !(await inList()); i++) await page.keyboard.press("Tab");
    const stops: string[] = [];
    for (let i = 0; i < 40 && (await inList()); i++) {
      stops.push(await focused(page));
      await page.keyboard.press("Tab");
    }
    const own = await rowStops(page, "One");
    expect(own.slice(0, 2)).toEqual(["row One", "checkbox Complete One"]);
    expect(stops).toEqual(own);
    // Without the roving stop, every row and each of its controls would be one.
    const everyControl = await tree.locator("[role='treeitem'], button, input").count();
    expect(everyControl).toBeGreaterThan(4 * stops.length);
    await page.keyboard.press("Shift+Tab");
    await expectFocus(page, own[own.length - 1] as string);
    await page.keyboard.press("Escape");
    await expectFocus(page, "row One");

    const keys: [string, string][] = [
      ["ArrowDown", "row Two"],
      ["ArrowDown", "row Two a"],
      ["ArrowDown", "row Two b"],
      ["ArrowDown", "row Three"],
      ["ArrowUp", "row Two b"],
      ["ArrowLeft", "row Two"],
      ["ArrowRight", "row Two a"],
      ["End", "row Four"],
      ["ArrowDown", "row Four"],
      ["Home", "row One"],
      ["ArrowUp", "row One"],
      ["ArrowDown", "row Two"],
    ];
    for (const [key, want] of keys) {
      await page.keyboard.press(key);
      expect(`${key}: ${await focused(page)}`).toBe(`${key}: ${want}`);
    }
    await shot(page, "workspace-keyboard");
    // The Tab stop stays where the arrows left it.
    await page.keyboard.press("Shift+Tab");
    expect(await inList()).toBe(false);
    await page.keyboard.press("Tab");
    await expectFocus(page, "row Two");
    await page.keyboard.press("Tab");
    await expectFocus(page, "checkbox Complete Two");
    await page.keyboard.press("Escape");
    await expectFocus(page, "row Two");

    // Space completes the focused todo, as its checkbox would.
    await page.keyboard.press("End");
    await page.keyboard.press(" ");
    await page.waitForFunction(() => document.querySelector("[role='treeitem'][aria-label='Four']")?.getAttribute("aria-checked") === "true");
    expect(await treeitem(page, "Four").getAttribute("aria-checked")).toBe("true");
    expect(await page.getByLabel("Complete Four").isChecked()).toBe(true);
    await expectFocus(page, "row Four");
    expect(errors).toEqual([]);
  });

  it("item 8: opening a todo's comments puts the focus in the comment field", async () => {
    await action(page, "Three", "Comment").press("Enter");
    await expectFocus(page, "field New comment");
    await page.keyboard.press("Escape");
    await expectFocus(page, "row Three");
    expect(errors).toEqual([]);
  });
});
