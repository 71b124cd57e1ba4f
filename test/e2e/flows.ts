import { expect } from "bun:test";
import type { Browser, Page } from "playwright-core";
import type { TestApp } from "../helpers/app.ts";
import { PASSWORD, signUp } from "../helpers/identity.ts";
import { ensureSetup } from "../helpers/workspace.ts";

/** A fresh browser context and page that records uncaught page errors and failed API calls. */
export async function openPage(browser: Browser) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  return { context, page, errors };
}

/** Signs in through the password form (no second factor expected) and waits for home. */
export async function signInWithPassword(page: Page, app: TestApp, login: string, password: string) {
  await page.goto(`${app.url}/login`);
  await page.getByLabel("Username or email").fill(login);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.waitForURL(`${app.url}/`);
}

/** From /w into the workspace: it signs in through the IdP (consent once) and opens a set. */
export async function openWorkspace(page: Page, app: TestApp) {
  await page.goto(`${app.url}/w`);
  await page.waitForURL((url) => url.pathname.startsWith("/consent") || url.pathname.includes("/sets/"));
  if (new URL(page.url()).pathname.startsWith("/consent")) await page.getByRole("button", { name: /Allow|Approve/ }).click();
  await page.waitForURL((url) => url.pathname.includes("/sets/"));
}

/** The session the page's cookie holds, as the SPA sees it. */
export async function sessionOf(page: Page): Promise<{ status: number; body: any }> {
  return page.evaluate(async () => {
    const res = await fetch("/api/auth/session");
    return { status: res.status, body: await res.json() };
  });
}

export async function signOut(page: Page, app: TestApp) {
  await page.getByRole("button", { name: "Sign out" }).click();
  await page.getByRole("link", { name: "Sign in" }).first().waitFor();
  expect((await sessionOf(page)).status).toBe(401);
  expect(page.url()).toBe(`${app.url}/`);
}

/** A full-page screenshot for a human to look at. */
export function shot(page: Page, name: string) {
  return page.screenshot({ path: `/tmp/cairn-${name}.png`, fullPage: true });
}

/** Adds todos through the workspace API from the page's user; a parent is named by its title. Returns their ids by title. */
export async function addTodos(page: Page, teamId: string, setId: string, titles: [string, string | null][]): Promise<Record<string, string>> {
  return page.evaluate(
    async ({ teamId, setId, titles }) => {
      const ids: Record<string, string> = {};
      for (const [title, parent] of titles) {
        const res = await fetch(`/api/teams/${teamId}/sets/${setId}/todos`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ title, parentId: parent ? ids[parent] : null }),
        });
        ids[title] = (await res.json()).todo.id;
      }
      return ids;
    },
    { teamId, setId, titles },
  );
}

/**
 * Alice (the admin) with a team "Household", signed in on a page of her own and looking at a new
 * set `setName`, made through the sidebar: the start of the share-link tests.
 */
export async function ownerInNewSet(browser: Browser, app: TestApp, setName: string) {
  const alice = await signUp(app, "alice", { name: "Alice Adams" });
  const teamId: string = (await alice.browser.json("POST", "/api/oauth/me/teams", { name: "Household" })).data.team.id;
  await ensureSetup(app);
  const { page, errors } = await openPage(browser);
  await signInWithPassword(page, app, "alice", PASSWORD);
  await openWorkspace(page, app);
  await page.getByLabel("New set name").fill(setName);
  await page.getByRole("button", { name: "Add set" }).click();
  await page.getByRole("heading", { name: setName }).waitFor();
  return { page, errors, teamId, setId: new URL(page.url()).pathname.split("/").pop() as string };
}
