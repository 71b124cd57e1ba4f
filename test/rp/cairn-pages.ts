import type { Page } from "playwright-core";
import type { TestApp } from "../helpers/app.ts";
import { PASSWORD } from "../helpers/identity.ts";

/** On Cairn's sign-in page an app sent the browser to: signs in with the password form. */
export async function signInAtCairn(page: Page, app: TestApp, login: string) {
  await page.waitForURL((url) => url.origin === app.url && url.pathname === "/login" && url.searchParams.has("return_to"));
  await page.getByLabel("Username or email").fill(login);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

/** On Cairn's consent page for `appName`: allows it. */
export async function allowAtCairn(page: Page, appName: string) {
  await page.waitForURL(/\/consent\?interaction=/);
  await page.getByRole("heading", { name: `Allow ${appName} to use your account?` }).waitFor();
  await page.getByRole("button", { name: /Allow|Approve/ }).click();
}

/** Every top-level page the browser loads, in order (redirects included). */
export function recordNavigations(page: Page): string[] {
  const visited: string[] = [];
  page.on("request", (request) => {
    if (request.isNavigationRequest() && request.frame() === page.mainFrame()) visited.push(request.url());
  });
  return visited;
}

/** Cairn's userinfo for `accessToken`: 200 and the claims while the token is good. */
export async function userinfo(app: TestApp, accessToken: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${app.url}/api/oauth/userinfo`, { headers: { authorization: `Bearer ${accessToken}` } });
  return { status: res.status, body: res.status === 200 ? await res.json() : {} };
}
