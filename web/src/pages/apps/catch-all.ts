import { globToRegex } from "../../../../src/contract/redirect-glob.ts";
import type { RedirectEntry } from "../../api/apps.ts";

/*
 * The browser's mirror of the server's isCatchAll (src/oauth/protocol/redirect-uri.ts), which
 * uses RE2; the page uses the built-in RegExp rather than ship RE2 for a warning. The probes are
 * the server's: URLs on hosts the app cannot own.
 */
const PROBES = ["https://evil.example/", "https://attacker.test/steal?code=1", "https://a.b/c"];

/** True when a wildcard or regex entry would accept any URL at all; false for one that does not compile. */
export function isCatchAll(entry: RedirectEntry): boolean {
  if (entry.match === "equals" || entry.uri.trim() === "") return false;
  let re: RegExp;
  try {
    re = new RegExp(`^(?:${entry.match === "wildcard" ? globToRegex(entry.uri.trim()) : entry.uri.trim()})$`);
  } catch {
    return false;
  }
  return PROBES.every((url) => re.test(url));
}
