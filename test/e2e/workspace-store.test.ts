import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { startApp, type TestApp } from "../helpers/app.ts";
import { browserSkipReason, launchBrowser } from "../helpers/browser.ts";
import { PASSWORD, signUp } from "../helpers/identity.ts";
import { ensureSetup } from "../helpers/workspace.ts";
import { openPage, openWorkspace, signInWithPassword } from "./flows.ts";

if (browserSkipReason) console.warn(`skipping browser tests: ${browserSkipReason}`);

// Longer than any debounce the SPA ever used before a refetch (150 ms), so a late GET is caught.
const SETTLE_MS = 500;
// The test waits SETTLE_MS on purpose after each click: more than bun's default 5 s in all.
const TEST_TIMEOUT_MS = 20_000;

const todo = (page: Page, title: string) =>
  page.locator("li.ws-todo", { has: page.locator(":scope > .ws-todo-row .ws-title", { hasText: new RegExp(`^${title}$`) }) });

/** Every API call the page makes from now on, as `METHOD /path` (the live stream itself left out). */
function recordApiCalls(page: Page): string[] {
  const calls: string[] = [];
  page.on("request", (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.startsWith("/api/") && !pathname.startsWith("/api/realtime/")) calls.push(`${request.method()} ${pathname}`);
  });
  return calls;
}

describe.skipIf(browserSkipReason !== null)("the workspace store in Chromium", () => {
  let browser: Browser;
  let app: TestApp;
  let teamId: string;
  let context: BrowserContext;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    browser = await launchBrowser();
    app = await startApp({ host: "localhost" });
    const alice = await signUp(app, "alice", { name: "Alice Adams" });
    teamId = (await alice.browser.json("POST", "/api/oauth/me/teams", { name: "Household" })).data.team.id;
    await ensureSetup(app);
    ({ context, page, errors } = await openPage(browser));
    await signInWithPassword(page, app, "alice", PASSWORD);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it(
    "makes only each click's own write, and a second page follows from events without refetching",
    async () => {
      await openWorkspace(page, app);
      const setPath = new URL(page.url()).pathname;
      const setId = setPath.split("/sets/")[1] as string;
      const add = page.getByLabel("New todo", { exact: true });
      for (const title of ["Laundry", "Dishes"]) {
        await add.fill(title);
        await add.press("Enter");
        await todo(page, title).waitFor();
      }
      const other = await context.newPage();
      await other.goto(`${app.url}${setPath}`);
      for (const p of [page, other]) await p.getByText("Live (WebSocket)").waitFor();
      // The stream may be live before the page's first loads are done: its todos shown means the
      // sets, the role's permissions, the members and the list have all been asked for.
      await todo(other, "Laundry").waitFor();
      const own = recordApiCalls(page);
      const seen = recordApiCalls(other);
      const counts = async (text: string) => {
        for (const p of [page, other]) await p.getByRole("link", { name: /Inbox/ }).getByText(text).waitFor();
      };
      /** Runs one click and returns the calls each page made until the other page showed it, and a while after. */
      const click = async (act: () => Promise<unknown>, shown: () => Promise<unknown>) => {
        own.length = 0;
        seen.length = 0;
        await act();
        await shown();
        await page.waitForTimeout(SETTLE_MS);
        return { own: [...own], seen: [...seen] };
      };
      const team = `/api/teams/${teamId}`;

      const laundry = await todo(page, "Laundry").getAttribute("data-todo-id");
      const completed = await click(
        () => page.getByLabel("Complete Laundry").check(),
        () => other.waitForFunction(() => (document.querySelector("input[aria-label='Complete Laundry']") as HTMLInputElement | null)?.checked === true),
      );
      expect(completed).toEqual({ own: [`PATCH ${team}/todos/${laundry}`], seen: [] });
      await counts("1/2");

      const added = await click(
        async () => {
          await add.fill("Groceries");
          await add.press("Enter");
        },
        () => todo(other, "Groceries").waitFor(),
      );
      expect(added).toEqual({ own: [`POST ${team}/sets/${setId}/todos`], seen: [] });
      await counts("1/3");

      const dishes = await todo(page, "Dishes").getAttribute("data-todo-id");
      const renamed = await click(
        async () => {
          await todo(page, "Dishes").getByRole("button", { name: "Edit" }).click();
          await page.getByLabel("Title of Dishes").fill("Wash the dishes");
          await page.getByLabel("Title of Dishes").press("Enter");
        },
        () => todo(other, "Wash the dishes").waitFor(),
      );
      expect(renamed).toEqual({ own: [`PATCH ${team}/todos/${dishes}`], seen: [] });
      await todo(page, "Wash the dishes").waitFor();
      await counts("1/3");

      await other.close();
      expect(errors).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );
});
