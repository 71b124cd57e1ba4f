import type { TestApp } from "./app.ts";
import { signUp, type SignedUp } from "./identity.ts";

/** What the sign-in steps need of an app: its address and a request to it (a TestApp, or one instance of several). */
type Reachable = Pick<TestApp, "url" | "json">;

const pathOf = (app: Reachable, location: string) => {
  const url = new URL(location, app.url);
  return url.pathname + url.search;
};

/** Runs setup once (the built-in workspace client) if the instance is not configured yet. */
export async function ensureSetup(app: Reachable) {
  if (!(await app.json("GET", "/api/init/status")).data.configured) await app.json("POST", "/api/init/setup");
}

/**
 * Signs `user` in to the workspace through the IdP (login, consent, callback), so their browser
 * holds a `cairn_ws` cookie. Teams come from the ID token, then from the IdP's team API: a team
 * changed later shows once the session is confirmed again (session-check.ts), without a new sign-in.
 */
export async function workspaceSignIn(app: Reachable, user: SignedUp): Promise<void> {
  await ensureSetup(app);
  const start = await user.browser.fetch("/api/workspace/login?return_to=/w");
  let next = (await user.browser.fetch(pathOf(app, start.headers.get("location") as string))).headers.get("location") as string;
  if (next.startsWith("/consent")) {
    const id = new URL(next, app.url).searchParams.get("interaction") as string;
    next = (await user.browser.json("POST", `/api/oauth/interaction/${id}`, { decision: "approve" })).data.redirect_to;
  }
  const done = await user.browser.fetch(pathOf(app, next));
  if (done.status !== 302) throw new Error(`workspace sign-in failed: ${done.status} ${await done.text()}`);
}

/** A user with a team of their own, signed in to the workspace: the usual start of a workspace test. */
export async function teamOwner(app: TestApp, username: string, teamName = "Household") {
  const user = await signUp(app, username);
  const team = (await user.browser.json("POST", "/api/oauth/me/teams", { name: teamName })).data.team as { id: string; name: string };
  await workspaceSignIn(app, user);
  return { user, team };
}
