import { isLoopbackHost } from "./redirect-uri-rules.ts";

// Whether links built on this Cairn's address work where they are going (issue 42): shared by the
// pages that hand such links out (the catalog's settings, share links).

/** Who follows the links: an app at these addresses (its redirect URIs), or other people. */
export type LinkAudience = { apps: readonly string[] } | "other people";

/** Where the README says how to set the address others use. */
export const ISSUER_HELP = "“For other machines on your network” under Quick start in the README";

/** What a page says: a one-line summary, and what it means and how to fix it. */
export type LocalhostWarning = { summary: string; detail: string };

const hostOf = (address: string): string | null => {
  try {
    return new URL(address).hostname;
  } catch {
    return null;
  }
};

/**
 * Why links to this Cairn will not work for `audience`, or null when they will. With a loopback
 * issuer (the quick start's http://localhost:3000) "localhost" means each reader's own machine:
 * an app on another host, or another person, would try to reach Cairn on itself. The fix is
 * CAIRN_ISSUER set to the address others use.
 */
export function localhostWarning(issuer: string, audience: LinkAudience): LocalhostWarning | null {
  const own = hostOf(issuer);
  if (own === null || !isLoopbackHost(own)) return null;
  const summary = "Other machines cannot reach localhost.";
  const fix = `Start Cairn with CAIRN_ISSUER set to the address others use (such as http://<server-ip>:3000 or https://id.example.com): see ${ISSUER_HELP}.`;
  if (audience === "other people") return { summary, detail: `These links point at ${issuer}, which works only on this computer. ${fix}` };
  const remote = audience.apps.map(hostOf).find((host) => host !== null && !isLoopbackHost(host));
  if (remote === undefined) return null;
  return {
    summary,
    detail: `The app at ${remote} is told to reach Cairn at ${issuer}, but there localhost is the app's own machine, so its sign-in will fail. ${fix} Then give the app the new address.`,
  };
}
