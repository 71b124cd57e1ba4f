import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { startApp, type TestApp } from "../helpers/app.ts";
import { browserSkipReason, launchBrowser } from "../helpers/browser.ts";
import { type SignedUp, signInWithTotp, signUp } from "../helpers/identity.ts";
import { REDIRECT, registerApp } from "../helpers/oauth.ts";
import { tempDir } from "../helpers/temp.ts";
import { workspaceSignIn } from "../helpers/workspace.ts";
import { authorizePath, pkce } from "../oauth/oauth.fixtures.ts";
import { newChallenge } from "../oauth/two-factor.fixtures.ts";
import { lookAt, screenshotWhole } from "./page-checks.ts";

if (browserSkipReason) console.warn(`skipping browser tests: ${browserSkipReason}`);

/** Where the screenshots go, for a person to look through: `<page>-390-<light|dark>.png`. */
const SHOTS = process.env.CAIRN_SHOTS ?? "/tmp/cairn-shots";
const WIDTH = 390;
const SCHEMES = ["light", "dark"] as const;
type Who = "visitor" | "ada" | "tess";

/** One page of the SPA (or the docs site), as someone reaches it, and what it is ready with. */
type Visit = {
  name: string;
  who: Who;
  /** A path on the app, or the full URL to open. */
  open: () => Promise<string>;
  heading: string | RegExp;
  /** What to do on the page before it is measured (open a dialog or a menu). */
  prepare?: (page: Page) => Promise<void>;
  app?: () => TestApp;
};

const MARKDOWN = `# Groceries

- [ ] Milk
  - [ ] Oat milk, the barista one in the blue carton
  - [x] Butter
- [ ] https://shop.example.com/receipts/2024/very-long-receipt-name-without-any-spaces.pdf
- [ ] Call the plumber about the kitchen tap before the weekend, and ask about the boiler too (due: ${new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10)} 09:30)
- [x] Bread
`;

/** An API answer that must have succeeded: setup mistakes stop here, not as a puzzling page. */
async function ok<T extends { status: number; data: any }>(answer: Promise<T>): Promise<T["data"]> {
  const res = await answer;
  if (res.status >= 300) throw new Error(`setup call failed: ${res.status} ${JSON.stringify(res.data)}`);
  return res.data;
}

function docsFolder(): string {
  const root = tempDir("cairn-docs-");
  mkdirSync(join(root, "docs/en"), { recursive: true });
  writeFileSync(
    join(root, "docs/en/index.md"),
    "# Welcome\n\nStart with the setup.\n\n```sh\nCAIRN_ISSUER=https://cairn.example.com ./cairn serve --with-a-long-flag-name\n```\n\n| Variable | Default |\n|---|---|\n| `CAIRN_DATA` | `./data` |\n",
  );
  return root;
}

/*
 * Every page, as a phone shows it: 390 px wide, in light and in dark mode. Each must fit the width,
 * keep its text readable against its background (WCAG AA), be dark in dark mode, and leave a
 * full-page screenshot for a person to look at.
 */
describe.skipIf(browserSkipReason !== null)("every page at 390 px, light and dark", () => {
  let browser: Browser;
  let app: TestApp;
  let fresh: TestApp;
  let ada: SignedUp;
  let tess: { browser: SignedUp["browser"] };
  let teamId = "";
  let setId = "";
  let shareToken = "";
  let clientId = "";
  let tvClientId = "";
  let rp: { client_id: string; client_secret?: string };
  const contexts = new Map<string, BrowserContext>();

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    browser = await launchBrowser();
    fresh = await startApp({ host: "localhost" });
    app = await startApp({ host: "localhost" });
    ada = await signUp(app, "ada", { name: "Ada Lovelace" }); // the first account: the admin
    const bob = await signUp(app, "bob", { name: "Bob Builder" });
    const tessUser = await signUp(app, "tess", { name: "Tess Totp" });
    tess = await signInWithTotp(app, tessUser, () => Date.now());

    teamId = (await ok(ada.browser.json("POST", "/api/oauth/me/teams", { name: "Household" }))).team.id;
    await ok(ada.browser.json("POST", `/api/oauth/me/teams/${teamId}/members`, { username: "bob", role: "member" }));
    await ok(ada.browser.json("POST", `/api/oauth/me/teams/${teamId}/groups`, { slug: "parents", name: "Parents" }));
    await workspaceSignIn(app, ada);
    // A dark accent, as a team picks one: dark mode must still read (issue 42), which lookAt checks.
    await ok(ada.browser.json("PATCH", `/api/teams/${teamId}/settings`, { accent_color: "#0f766e" }));
    setId = (
      await ok(ada.browser.json("POST", `/api/teams/${teamId}/sets/import`, { format: "md", content: MARKDOWN, includeComments: false, setName: "Groceries" }))
    ).set.id;
    const todos = (await ok(ada.browser.json("GET", `/api/teams/${teamId}/sets/${setId}/todos`))).todos as { id: string; title: string }[];
    const milk = todos.find((t) => t.title === "Milk")!.id;
    await ok(ada.browser.json("PUT", `/api/teams/${teamId}/todos/${milk}/assignees`, { userIds: [ada.user.id, bob.user.id] }));
    // Overdue, beside the due-in-two-days plumber: its red must read in both themes too.
    await ok(ada.browser.json("PATCH", `/api/teams/${teamId}/todos/${milk}`, { dueDate: new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10) }));
    await ok(
      ada.browser.json("POST", `/api/teams/${teamId}/todos/${milk}/comments`, {
        body: "The **1 litre** one, not the 2 litre one. [Shop](https://shop.example.com)\n- oat\n- `barista`",
      }),
    );
    const link = await ok(
      ada.browser.json("POST", `/api/teams/${teamId}/sets/${setId}/share-links`, { name: "Neighbours", canView: true, canComplete: true, canCreate: true }),
    );
    shareToken = link.link.token;

    clientId = (await registerApp(ada, { name: "Photo gallery" })).client_id;
    tvClientId = (await registerApp(ada, { name: "Living-room TV", public: true, grant_types: ["urn:ietf:params:oauth:grant-type:device_code"] })).client_id;
    rp = await registerApp(ada, { name: "Code host" });
    await ok(ada.browser.json("POST", "/api/oauth/me/tokens", { name: "Backup script", scopes: ["profile"] }));
    await ok(ada.browser.json("POST", "/api/oauth/admin/invites", { email: "carol@example.com" }));
    await ok(ada.browser.json("POST", "/api/docs/sources", { kind: "local", name: "Cairn", slug: "cairn", local_path: docsFolder(), locales: ["en"] }));

    for (const scheme of SCHEMES) {
      for (const who of ["visitor", "ada", "tess"] as const) {
        const context = await browser.newContext({ viewport: { width: WIDTH, height: 844 }, colorScheme: scheme, isMobile: true, hasTouch: true });
        const jar = who === "ada" ? ada.browser : who === "tess" ? tess.browser : null;
        if (jar) await context.addCookies([...jar.cookies].map(([name, value]) => ({ name, value, url: app.url })));
        contexts.set(`${scheme}:${who}`, context);
      }
    }
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await fresh?.stop();
  });

  const deviceLink = async () => {
    const res = await fetch(`${app.url}/api/oauth/device_authorization`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ client_id: tvClientId, scope: "openid profile" }),
    });
    return ((await res.json()) as { verification_uri_complete: string }).verification_uri_complete;
  };
  const consentStart = async () =>
    authorizePath({
      client_id: clientId,
      response_type: "code",
      redirect_uri: REDIRECT,
      scope: "openid profile email",
      state: "st-1",
      code_challenge: (await pkce()).challenge,
      code_challenge_method: "S256",
    });
  const twoFactorLink = async () => {
    const challenge = await newChallenge(app, rp as { client_id: string; client_secret: string });
    return `${challenge.answer.url}&state=${challenge.state}`;
  };
  const path = (p: string) => async () => p;
  const todoRow = (page: Page, title: string) => page.locator("li.ws-todo", { has: page.locator(":scope > .ws-todo-row .ws-title", { hasText: title }) });

  const VISITS: Visit[] = [
    { name: "setup", who: "visitor", open: path("/setup"), heading: "Welcome to Cairn", app: () => fresh },
    { name: "home-signed-out", who: "visitor", open: path("/"), heading: "Welcome to Cairn" },
    { name: "login", who: "visitor", open: path("/login"), heading: "Sign in" },
    { name: "register", who: "visitor", open: path("/register"), heading: "Create your account" },
    { name: "reset-password", who: "visitor", open: path("/reset-password?token=shown-before-it-is-checked"), heading: "Choose a new password" },
    { name: "forgot-password", who: "visitor", open: path("/forgot-password"), heading: "Reset your password" },
    { name: "verify-email", who: "visitor", open: path("/verify-email?token=shown-before-it-is-checked"), heading: "Confirm your email address" },
    { name: "home", who: "ada", open: path("/"), heading: "Welcome, Ada Lovelace" },
    { name: "account", who: "ada", open: path("/account"), heading: "Your account" },
    { name: "settings", who: "ada", open: path("/settings"), heading: "Workspace connection" },
    { name: "setup-done", who: "ada", open: path("/setup"), heading: "Already configured" },
    { name: "apps", who: "ada", open: path("/apps"), heading: "My apps" },
    { name: "app", who: "ada", open: async () => `/apps/${clientId}`, heading: "Photo gallery" },
    { name: "teams", who: "ada", open: path("/teams"), heading: "Teams" },
    { name: "team", who: "ada", open: async () => `/teams/${teamId}`, heading: "Household" },
    { name: "admin", who: "ada", open: path("/admin"), heading: "Administration" },
    { name: "consent", who: "ada", open: consentStart, heading: "Allow Photo gallery to use your account?" },
    { name: "device", who: "ada", open: path("/device"), heading: "Connect a device" },
    { name: "device-request", who: "ada", open: deviceLink, heading: "Allow Living-room TV on your device?" },
    { name: "logout", who: "ada", open: path("/api/oauth/end_session"), heading: "Sign out?" },
    { name: "two-factor", who: "tess", open: twoFactorLink, heading: "Confirm an action for Code host" },
    { name: "workspace-set", who: "ada", open: async () => `/w/${teamId}/sets/${setId}`, heading: "Groceries" },
    {
      name: "workspace-menu",
      who: "ada",
      open: async () => `/w/${teamId}/sets/${setId}`,
      heading: "Groceries",
      // A phone has no hover: the first actions show on every row, the rest under More.
      prepare: async (page) => {
        await todoRow(page, "Bread").getByRole("button", { name: "More actions for Bread" }).click();
        await page.getByRole("menu", { name: "More actions for Bread" }).getByRole("menuitem", { name: "Delete" }).waitFor();
      },
    },
    {
      name: "workspace-shortcuts",
      who: "ada",
      open: async () => `/w/${teamId}/sets/${setId}`,
      heading: "Groceries",
      // On a phone the sidebar, with its Keyboard shortcuts button, is in the drawer (issue 42).
      prepare: async (page) => {
        await page.getByRole("button", { name: "Sets", exact: true }).click();
        await page.getByRole("dialog", { name: "Sets and workspace" }).getByRole("button", { name: "Keyboard shortcuts" }).click();
        await page.getByRole("dialog", { name: "Keyboard shortcuts" }).waitFor();
      },
    },
    {
      name: "workspace-drawer",
      who: "ada",
      open: async () => `/w/${teamId}/sets/${setId}`,
      heading: "Groceries",
      prepare: async (page) => {
        await page.getByRole("button", { name: "Sets", exact: true }).click();
        await page
          .getByRole("dialog", { name: "Sets and workspace" })
          .getByRole("link", { name: /Groceries/ })
          .waitFor();
      },
    },
    {
      name: "workspace-comments",
      who: "ada",
      open: async () => `/w/${teamId}/sets/${setId}`,
      heading: "Groceries",
      prepare: async (page) => {
        await page.getByRole("button", { name: "1 comment on Milk" }).click();
        await page.getByRole("list", { name: "Comments on Milk" }).getByText("The 1 litre one").waitFor();
      },
    },
    {
      name: "workspace-import",
      who: "ada",
      open: async () => `/w/${teamId}/sets/${setId}`,
      heading: "Groceries",
      prepare: async (page) => {
        await page.getByRole("button", { name: "Import", exact: true }).click();
        await page.getByRole("dialog", { name: "Import todos" }).getByLabel("Content").fill(MARKDOWN);
      },
    },
    {
      name: "workspace-importing",
      who: "ada",
      open: async () => `/w/${teamId}/sets/${setId}`,
      heading: "Groceries",
      // The import is held at the network, so the page is caught while it runs.
      prepare: async (page) => {
        await page.route("**/import", () => {});
        await page.getByRole("button", { name: "Import", exact: true }).click();
        const dialog = page.getByRole("dialog", { name: "Import todos" });
        await dialog.getByLabel("Content").fill(MARKDOWN);
        await dialog.getByRole("button", { name: "Import", exact: true }).click();
        await dialog.getByRole("progressbar", { name: "Import progress" }).waitFor();
        await dialog.getByRole("status").getByText("Importing…").waitFor();
        expect(await dialog.getByLabel("Content").isDisabled()).toBe(true);
        expect(await dialog.getByRole("button", { name: "Import", exact: true }).isDisabled()).toBe(true);
      },
    },
    {
      name: "workspace-share",
      who: "ada",
      open: async () => `/w/${teamId}/sets/${setId}`,
      heading: "Groceries",
      prepare: async (page) => {
        await page.getByRole("button", { name: "Share", exact: true }).click();
        await page.getByRole("dialog", { name: /Share/ }).getByText("Neighbours").first().waitFor();
      },
    },
    { name: "workspace-assigned", who: "ada", open: async () => `/w/${teamId}/assigned`, heading: "Assigned to me" },
    { name: "workspace-due-soon", who: "ada", open: async () => `/w/${teamId}/due-soon`, heading: "Due soon" },
    { name: "workspace-settings", who: "ada", open: async () => `/w/${teamId}/settings`, heading: "Workspace settings" },
    { name: "workspace-preferences", who: "ada", open: path("/w/settings"), heading: "Your workspace preferences" },
    { name: "shared", who: "visitor", open: async () => `/s/${shareToken}`, heading: "Groceries" },
    { name: "docs", who: "visitor", open: path("/docs"), heading: "Welcome to Cairn" },
    { name: "docs-guide-page", who: "visitor", open: path("/docs/guide/setup"), heading: "Install and set up" },
    { name: "docs-folder", who: "visitor", open: path("/docs/cairn/"), heading: "Welcome" },
    { name: "not-found", who: "visitor", open: path("/no-such-page"), heading: "Page not found" },
    { name: "wrong-address", who: "visitor", open: async () => app.url.replace("localhost", "127.0.0.1"), heading: "Open Cairn at its own address" },
  ];

  for (const visit of VISITS) {
    for (const scheme of SCHEMES) {
      it(`${visit.name} fits 390 px and reads well in ${scheme} mode`, async () => {
        const context = contexts.get(`${scheme}:${visit.who}`)!;
        const page = await context.newPage();
        const errors: string[] = [];
        page.on("pageerror", (e) => errors.push(e.message));
        try {
          const target = await visit.open();
          await page.goto(target.startsWith("http") ? target : `${(visit.app?.() ?? app).url}${target}`);
          await page.getByRole("heading", { name: visit.heading }).first().waitFor();
          // Sections load their lists after the heading: measure once nothing is loading.
          await page.waitForFunction(() => ![...document.querySelectorAll("p, span, div")].some((el) => el.textContent?.trim().startsWith("Loading")));
          await visit.prepare?.(page);
          await page.evaluate(() => document.fonts.ready);
          const look = await lookAt(page);
          await screenshotWhole(page, join(SHOTS, `${visit.name}-${WIDTH}-${scheme}.png`));

          expect({ page: visit.name, overflowing: look.overflowing }).toEqual({ page: visit.name, overflowing: [] });
          expect(look.scrollWidth).toBeLessThanOrEqual(WIDTH);
          expect({ page: visit.name, lowContrast: look.lowContrast }).toEqual({ page: visit.name, lowContrast: [] });
          if (scheme === "dark") expect(look.bodyLuminance).toBeLessThan(0.05);
          else expect(look.bodyLuminance).toBeGreaterThan(0.8);
          expect(look.bodyContrast).toBeGreaterThan(7);
          expect(errors).toEqual([]);
        } finally {
          await page.close();
        }
      });
    }
  }
});
