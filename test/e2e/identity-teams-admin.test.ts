import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { startApp, type TestApp } from "../helpers/app.ts";
import { browserSkipReason, launchBrowser } from "../helpers/browser.ts";
import { PASSWORD, type SignedUp, signUp } from "../helpers/identity.ts";
import { openPage, sessionOf, shot, signInWithPassword } from "./flows.ts";

if (browserSkipReason) console.warn(`skipping browser tests: ${browserSkipReason}`);

describe.skipIf(browserSkipReason !== null)("teams and administration pages in Chromium", () => {
  let browser: Browser;
  let app: TestApp;
  let admin: SignedUp;
  let bob: SignedUp;
  let context: BrowserContext;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    browser = await launchBrowser();
    app = await startApp({ host: "localhost" });
    admin = await signUp(app, "alice", { name: "Alice Admin" }); // the first account: the admin
    bob = await signUp(app, "bob", { name: "Bob Builder" });
    ({ context, page, errors } = await openPage(browser));
    await signInWithPassword(page, app, "alice", PASSWORD);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it("creates a team and a sub-team, shown as a tree", async () => {
    await page.getByRole("link", { name: "Teams", exact: true }).click();
    await page.getByRole("heading", { name: "Teams", exact: true }).waitFor();
    await page.getByText("No teams yet").waitFor();

    await page.getByLabel("Team name").fill("Household");
    await page.getByRole("button", { name: "Create team" }).click();
    const tree = page.getByRole("navigation", { name: "Your teams" });
    await tree.getByRole("link", { name: /Household/ }).waitFor();

    await page.getByLabel("Team name").fill("Kids");
    await page.getByLabel("Parent team").selectOption({ label: "Household" });
    await page.getByRole("button", { name: "Create team" }).click();
    // The sub-team is nested inside its parent's list item.
    await tree.locator("li", { hasText: "Household" }).locator("ul li").getByRole("link", { name: /Kids/ }).waitFor();
    await shot(page, "teams");

    const teams = (await admin.bearer("GET", "/api/oauth/me/teams")).data.teams;
    const household = teams.find((t: { name: string }) => t.name === "Household");
    expect(teams.find((t: { name: string }) => t.name === "Kids")).toMatchObject({ parent_id: household.id, role: "owner" });
  });

  it("adds a member by username, changes their role, and records it in the team's activity", async () => {
    await page
      .getByRole("navigation", { name: "Your teams" })
      .getByRole("link", { name: /^Household/ })
      .click();
    await page.getByRole("heading", { name: "Household", level: 1 }).waitFor();

    // An unknown username is refused next to the field.
    await page.getByLabel("Add member by username").fill("nobody-here");
    await page.getByRole("button", { name: "Add member" }).click();
    await page.locator(".field-error").first().waitFor();

    await page.getByLabel("Add member by username").fill("bob");
    await page.getByLabel("Role", { exact: true }).selectOption("member");
    await page.getByRole("button", { name: "Add member" }).click();
    const roleOfBob = page.getByLabel("Role of bob");
    await roleOfBob.waitFor();
    expect(await roleOfBob.inputValue()).toBe("member");

    await roleOfBob.selectOption("admin");
    await page.getByText("bob is now admin.").waitFor();
    const teamId = page.url().split("/teams/")[1] as string;
    const detail = (await bob.bearer("GET", `/api/oauth/me/teams/${teamId}`)).data;
    expect(detail.members.find((m: { username: string }) => m.username === "bob")).toMatchObject({ role: "admin", inherited_from: null });

    // A group with bob in it.
    await page.getByLabel("New group name").fill("Parents");
    expect(await page.getByLabel("Slug").inputValue()).toBe("parents");
    await page.getByRole("button", { name: "Create group" }).click();
    await page.getByRole("button", { name: "Edit members of Parents" }).click();
    await page.getByLabel("Bob Builder (@bob)").check();
    await page.getByRole("button", { name: "Save members" }).click();
    await page.getByRole("list", { name: "Groups" }).getByText("bob").waitFor();

    const activity = page.getByRole("list", { name: "Team activity" });
    await activity.getByText("changed bob from member to admin").waitFor();
    await activity.getByText("added bob as member").waitFor();
    await shot(page, "team");

    // Bob inherits his role in the sub-team.
    const kids = (await bob.bearer("GET", "/api/oauth/me/teams")).data.teams.find((t: { name: string }) => t.name === "Kids");
    expect(kids).toMatchObject({ role: "admin", direct_role: null });
  });

  it("invites someone through the admin page, who registers through the link", async () => {
    await page.getByRole("link", { name: "Admin", exact: true }).click();
    await page.getByRole("heading", { name: "Administration" }).waitFor();
    // signUp opened registration; put it back to invitations only through the settings form.
    await page.getByLabel("Registration").selectOption("invite");
    await page.getByRole("button", { name: "Save settings" }).click();
    await page.getByText("Site settings saved.").waitFor();
    expect((await admin.bearer("GET", "/api/oauth/admin/config")).data.config.registration).toBe("invite");

    await page.getByLabel("For email (optional)").fill("carol@example.com");
    await page.getByRole("button", { name: "Create invitation" }).click();
    const link = await page.getByRole("textbox", { name: "Invitation link" }).inputValue();
    expect(link).toStartWith(`${app.url}/register?invite=`);
    await page.getByRole("list", { name: "Invitations" }).getByText("carol@example.com").waitFor();

    // The users list searches and shows bob.
    await page.getByLabel("Search users").fill("bob");
    await page.getByLabel("Role of alice").waitFor({ state: "detached" });
    await page.getByLabel("Role of bob").waitFor();
    await page.getByLabel("Search users").fill("");
    await page.getByLabel("Role of alice").waitFor();
    await shot(page, "admin");

    // A new visitor opens the link: the code is filled in and registration works.
    const guest = await openPage(browser);
    await guest.page.goto(link);
    await guest.page.getByRole("heading", { name: "Create your account" }).waitFor();
    expect(await guest.page.getByLabel("Invitation code").inputValue()).toBe(new URL(link).searchParams.get("invite") as string);
    await guest.page.getByLabel("Username").fill("carol");
    // The invitation is for carol@example.com: the email is filled in and locked (issue 42).
    expect(await guest.page.getByLabel("Email").inputValue()).toBe("carol@example.com");
    await guest.page.getByLabel("Password").fill(PASSWORD);
    await shot(guest.page, "register");
    await guest.page.getByRole("button", { name: "Create account" }).click();
    await guest.page.waitForURL(`${app.url}/account`);
    expect((await sessionOf(guest.page)).body.user).toMatchObject({ username: "carol", role: "user" });
    // Not an admin: the admin page says so instead of failing.
    await guest.page.goto(`${app.url}/admin`);
    await guest.page.getByRole("heading", { name: "Admins only" }).waitFor();
    expect(await guest.page.getByRole("navigation", { name: "Account" }).textContent()).not.toContain("Admin");
    expect(guest.errors).toEqual([]);
    await guest.context.close();

    // The invitation now shows as used.
    await page.reload();
    await page.getByRole("list", { name: "Invitations" }).getByText("used", { exact: true }).waitFor();
  });

  it("disables and re-enables a user from the users list", async () => {
    await page.getByLabel("Search users").fill("carol");
    await page.getByLabel("Role of alice").waitFor({ state: "detached" });
    await page.getByRole("button", { name: "Disable carol" }).click();
    await page.getByText("carol is disabled and signed out.").waitFor();
    const login = await app.client().json("POST", "/api/auth/login", { login: "carol", password: PASSWORD });
    expect(login.status).toBe(403);
    await page.getByRole("button", { name: "Enable carol" }).click();
    await page.getByText("carol can sign in again.").waitFor();
    expect((await app.client().json("POST", "/api/auth/login", { login: "carol", password: PASSWORD })).status).toBe(200);
    await page.getByRole("heading", { name: "Audit log" }).waitFor();
    await page.getByText("invite.created").first().waitFor();
    // The same page in dark mode, for a look at the palette.
    await page.emulateMedia({ colorScheme: "dark" });
    await page.goto(`${app.url}/teams`);
    await page.getByRole("navigation", { name: "Your teams" }).waitFor();
    await shot(page, "teams-dark");
    expect(errors).toEqual([]);
    await context.close();
  });
});
