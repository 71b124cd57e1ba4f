import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import { accentVariants, contrastRatio } from "../../web/src/lib/contrast.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { browserSkipReason, launchBrowser } from "../helpers/browser.ts";
import { type SignedUp, signUp } from "../helpers/identity.ts";
import { workspaceSignIn } from "../helpers/workspace.ts";
import { COMMENT_TAGS } from "../../src/workspace/comments/comment-markdown.ts";
import { XSS_COMMENTS } from "../workspace/comment-markdown.fixtures.ts";

if (browserSkipReason) console.warn(`skipping browser tests: ${browserSkipReason}`);

/** An API answer that must have succeeded. */
async function ok<T extends { status: number; data: any }>(answer: Promise<T>): Promise<T["data"]> {
  const res = await answer;
  if (res.status >= 300) throw new Error(`setup call failed: ${res.status} ${JSON.stringify(res.data)}`);
  return res.data;
}

/** Issue 42, "the workspace as a task list": comments, the comment count, the phone drawer, the time zone picker, the accent. */
describe.skipIf(browserSkipReason !== null)("the workspace as a task list in Chromium", () => {
  let browser: Browser;
  let app: TestApp;
  let owner: SignedUp;
  let teamId = "";
  let freshTeamId = "";
  let setId = "";
  let errandsId = "";
  let todoId = "";

  beforeAll(async () => {
    browser = await launchBrowser();
    app = await startApp({ host: "localhost" });
    owner = await signUp(app, "olive", { name: "Olive Owner" });
    teamId = (await ok(owner.browser.json("POST", "/api/oauth/me/teams", { name: "Studio" }))).team.id;
    // A team whose workspace settings nobody has changed yet.
    freshTeamId = (await ok(owner.browser.json("POST", "/api/oauth/me/teams", { name: "Attic" }))).team.id;
    await workspaceSignIn(app, owner);
    setId = (await ok(owner.browser.json("GET", `/api/teams/${teamId}/sets`))).sets[0].id;
    errandsId = (await ok(owner.browser.json("POST", `/api/teams/${teamId}/sets`, { name: "Errands" }))).set.id;
    todoId = (await ok(owner.browser.json("POST", `/api/teams/${teamId}/sets/${setId}/todos`, { title: "Buy paint" }))).todo.id;
    await ok(
      owner.browser.json("POST", `/api/teams/${teamId}/todos/${todoId}/comments`, { body: "**Matt** white, see [the card](https://paint.example/card)" }),
    );
    for (const body of XSS_COMMENTS) await ok(owner.browser.json("POST", `/api/teams/${teamId}/todos/${todoId}/comments`, { body }));
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  /** A page in a fresh context holding the owner's cookies (IdP and workspace), recording page errors and dialogs. */
  async function ownerPage(options: BrowserContextOptions = {}) {
    const context = await browser.newContext(options);
    await context.addCookies([...owner.browser.cookies].map(([name, value]) => ({ name, value, url: app.url })));
    // Every hostile comment that ran would call one of these.
    await context.addInitScript(() => {
      const ran: string[] = [];
      (window as unknown as { ran: string[] }).ran = ran;
      for (const name of ["alert", "confirm", "prompt"] as const) (window as unknown as Record<string, unknown>)[name] = () => void ran.push(name);
    });
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    const problems: string[] = [];
    page.on("pageerror", (e) => problems.push(e.message));
    page.on("dialog", (d) => {
      problems.push(`dialog: ${d.message()}`);
      void d.dismiss();
    });
    return { page, problems, close: () => context.close() };
  }

  const openSet = async (page: Page, id: string, name: string) => {
    await page.goto(`${app.url}/w/${teamId}/sets/${id}`);
    await page.getByRole("heading", { name, level: 1 }).waitFor();
  };

  it("counts comments with a drawn icon and a spoken number, and shows their Markdown with nothing executable", async () => {
    const { page, problems, close } = await ownerPage();
    try {
      await openSet(page, setId, "Inbox");
      const total = XSS_COMMENTS.length + 1;
      const count = page.getByRole("button", { name: `${total} comments on Buy paint`, exact: true });
      await count.waitFor(); // the heading shows before the todos have loaded
      // An SVG in the text's color, no emoji: the number is the only text.
      expect(await count.locator("svg[aria-hidden='true']").count()).toBe(1);
      expect((await count.textContent())?.trim()).toBe(String(total));

      await count.click();
      const list = page.getByRole("list", { name: "Comments on Buy paint" });
      const card = list.getByRole("link", { name: "the card" });
      await card.waitFor();
      expect(await card.getAttribute("href")).toBe("https://paint.example/card");
      expect(await card.getAttribute("rel")).toBe("noopener noreferrer nofollow");
      expect(await list.locator("strong", { hasText: "Matt" }).count()).toBe(1);
      // Typed tags are shown as the text they are.
      await list.getByText("<script>alert(1)</script>", { exact: true }).first().waitFor();

      const found = await page.evaluate(() => {
        const bodies = [...document.querySelectorAll(".ws-comment-body")];
        const elements = bodies.flatMap((b) => [...b.querySelectorAll("*")]);
        return {
          bodies: bodies.length,
          tags: [...new Set(elements.map((el) => el.tagName.toLowerCase()))],
          handlers: elements.flatMap((el) => el.getAttributeNames().filter((n) => n.startsWith("on"))),
          hrefs: elements.flatMap((el) => (el.hasAttribute("href") ? [el.getAttribute("href") as string] : [])),
          ran: (window as unknown as { ran: string[] }).ran,
        };
      });
      expect(found.bodies).toBe(total);
      expect(found.tags.filter((tag) => !(COMMENT_TAGS as readonly string[]).includes(tag))).toEqual([]);
      expect(found.handlers).toEqual([]);
      expect(found.hrefs.filter((href) => !/^(https?:|mailto:)/.test(href))).toEqual([]);
      expect(found.ran).toEqual([]);

      // Written here: Shift+Enter makes the lines of a list, Enter sends.
      const field = page.getByRole("textbox", { name: "New comment" });
      await field.fill("Colours:");
      await field.press("Shift+Enter");
      await field.pressSequentially("- ivory");
      await field.press("Shift+Enter");
      await field.pressSequentially("- *chalk*");
      await field.press("Enter");
      await list.locator("li em", { hasText: "chalk" }).waitFor();
      const mine = list.locator(":scope > li").last();
      expect(await mine.locator(".ws-comment-body").innerHTML()).toBe("<p>Colours:</p>\n<ul>\n<li>ivory</li>\n<li><em>chalk</em></li>\n</ul>");
      await page.getByRole("button", { name: `${total + 1} comments on Buy paint`, exact: true }).waitFor();
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it("puts the list first on a 390 px phone and the sets in a drawer the header opens; Escape and the backdrop close it", async () => {
    const { page, problems, close } = await ownerPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    try {
      await openSet(page, setId, "Inbox");
      // The first todo is on the first screen; the sidebar is not on the page until asked for.
      const row = page.locator(".ws-todo-row").first();
      await row.waitFor();
      const box = await row.boundingBox();
      expect(box && box.y + box.height).toBeLessThanOrEqual(844);
      expect(await page.getByRole("navigation", { name: "Workspace" }).isVisible()).toBe(false);

      const opener = page.getByRole("button", { name: "Sets", exact: true });
      expect(await opener.getAttribute("aria-expanded")).toBe("false");
      await opener.click();
      const drawer = page.getByRole("dialog", { name: "Sets and workspace" });
      await drawer.getByRole("link", { name: /Errands/ }).waitFor();
      expect(await opener.getAttribute("aria-expanded")).toBe("true");
      // Focus starts on the open set's link, inside the drawer.
      expect(
        await page.evaluate(() => [
          document.activeElement?.closest("dialog")?.getAttribute("aria-label"),
          document.activeElement?.getAttribute("aria-current"),
        ]),
      ).toEqual(["Sets and workspace", "page"]);

      await page.keyboard.press("Escape");
      await drawer.waitFor({ state: "hidden" });
      // The dialog hides first; the opener's state follows with the next render (CI, under load, read it between).
      await page.waitForFunction(() =>
        [...document.querySelectorAll("button")].some((b) => b.textContent?.trim() === "Sets" && b.getAttribute("aria-expanded") === "false"),
      );
      expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).toBe("Sets");
      expect(await opener.getAttribute("aria-expanded")).toBe("false");

      // A tap on the dimmed page beside the panel closes it.
      await opener.click();
      await drawer.waitFor();
      await page.mouse.click(385, 600);
      await drawer.waitFor({ state: "hidden" });

      // Choosing a set goes there and puts the drawer away.
      await opener.click();
      await drawer.getByRole("link", { name: /Errands/ }).click();
      await page.getByRole("heading", { name: "Errands", level: 1 }).waitFor();
      expect(new URL(page.url()).pathname).toBe(`/w/${teamId}/sets/${errandsId}`);
      await drawer.waitFor({ state: "hidden" });
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it("offers the browser's time zone first in a searchable combobox, and starts a new workspace from it", async () => {
    const { page, problems, close } = await ownerPage({ timezoneId: "Pacific/Auckland" });
    try {
      await page.goto(`${app.url}/w/${freshTeamId}/settings`);
      const zone = page.getByRole("combobox", { name: "Default time zone" });
      await zone.waitFor();
      // A workspace nobody configured starts from this browser's zone, said to be unsaved.
      expect(await zone.inputValue()).toBe("Pacific/Auckland");
      await page.getByText("This browser's time zone, suggested for a new workspace").waitFor();

      await zone.click();
      expect(await zone.getAttribute("aria-expanded")).toBe("true");
      const list = page.getByRole("listbox", { name: "Time zones" });
      expect(await list.getByRole("option").first().textContent()).toBe("Pacific/Auckland (this browser)");
      expect(await list.getByRole("option", { selected: true }).textContent()).toBe("Pacific/Auckland (this browser)");

      await zone.fill("new york");
      expect(await list.getByRole("option").allTextContents()).toEqual(["America/New York"]);
      const active = (await zone.getAttribute("aria-activedescendant")) as string;
      expect(await page.evaluate((id) => document.getElementById(id)?.textContent, active)).toBe("America/New York");
      await zone.press("Enter");
      expect(await zone.getAttribute("aria-expanded")).toBe("false");
      expect(await zone.inputValue()).toBe("America/New York");

      // Escape closes the list and keeps the choice.
      await zone.fill("berl");
      await zone.press("ArrowDown");
      await zone.press("Escape");
      expect(await zone.getAttribute("aria-expanded")).toBe("false");
      expect(await zone.inputValue()).toBe("America/New York");

      await page.getByRole("button", { name: "Save settings" }).click();
      await page.getByText("Workspace settings saved.").waitFor();
      const saved = await page.evaluate(async (id) => (await (await fetch(`/api/teams/${id}/settings`)).json()).settings.default_timezone, freshTeamId);
      expect(saved).toBe("America/New_York");
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it("shows a dark accent lightened in dark mode to 4.5:1, and as chosen in light mode", async () => {
    await ok(owner.browser.json("PATCH", `/api/teams/${teamId}/settings`, { accent_color: "#0f766e" }));
    const variants = accentVariants("#0f766e");
    for (const scheme of ["light", "dark"] as const) {
      const { page, problems, close } = await ownerPage({ colorScheme: scheme });
      try {
        await openSet(page, setId, "Inbox");
        await page.waitForFunction((want) => getComputedStyle(document.documentElement).getPropertyValue("--accent").trim() === want, variants[scheme].accent);
        const [accent, bg] = await page.evaluate(() =>
          ["--accent", "--bg"].map((name) => getComputedStyle(document.documentElement).getPropertyValue(name).trim()),
        );
        expect(accent).toBe(scheme === "light" ? "#0f766e" : variants.dark.accent);
        expect(contrastRatio(accent as string, bg as string)).toBeGreaterThanOrEqual(4.5);
        expect(problems).toEqual([]);
      } finally {
        await close();
      }
    }
  });
});
