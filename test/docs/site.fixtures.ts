import { afterAll, beforeAll } from "bun:test";
import { startApp, type TestApp } from "../helpers/app.ts";
import { manualClock } from "../helpers/clock.ts";
import { type SignedUp, signUp } from "../helpers/identity.ts";
import { type GitHubStandIn, githubStandIn, krokiStandIn } from "./docs.fixtures.ts";

/* What the tests of the docs site (spec 3 sections 1.3 and 8) share. */

export const SECRET = "site test secret";
export const PAGE_CSP = "default-src 'none'; style-src 'self'; img-src 'self' https: data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";
export const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]);
export const SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>';

/** The sidebar as its labels in order, nested entries indented by two spaces per level. */
export function sidebarLabels(html: string): string[] {
  const start = html.indexOf('<nav class="sidebar"');
  const nav = html.slice(start, html.indexOf("</nav>", start));
  const labels: string[] = [];
  let depth = -1;
  for (const m of nav.matchAll(/<ul>|<\/ul>|<a href="[^"]*"[^>]*>(?:<strong>)?([^<]*)|<span class="folder">([^<]*)/g)) {
    if (m[0] === "<ul>") depth++;
    else if (m[0] === "</ul>") depth--;
    else labels.push(`${"  ".repeat(depth)}${m[1] ?? m[2]}`);
  }
  return labels;
}

/**
 * A test file's instance (DOCS_WEBHOOK_SECRET set, outbound requests to loopback allowed) on a
 * manual clock, its admin, and stand-ins of GitHub and Kroki, started before its tests and stopped
 * after them; `cast` is filled in once they start.
 */
export function siteWorld() {
  const clock = manualClock(Date.parse("2025-06-01T08:00:00Z"));
  const cast = {} as { gh: GitHubStandIn; kroki: ReturnType<typeof krokiStandIn>; app: TestApp; admin: SignedUp };
  beforeAll(async () => {
    cast.gh = githubStandIn();
    cast.kroki = krokiStandIn();
    cast.app = await startApp({ env: { DOCS_WEBHOOK_SECRET: SECRET }, overrides: { clock, outbound: { allowLoopback: true } } });
    cast.admin = await signUp(cast.app, "admin");
  });
  afterAll(async () => {
    await cast.app.stop();
    cast.gh.stop();
    cast.kroki.stop();
  });
  return { clock, cast };
}
