import type { RE2JS } from "re2js";
import { onFirstUse } from "../../shared/on-first-use.ts";
import { globToRegex } from "../../contract/redirect-glob.ts";
import { checkRedirectUri, MAX_REDIRECT_PATTERN, patternFaultText, redirectFaultText } from "../../contract/redirect-uri-rules.ts";
import type { RedirectEntry } from "../../contract/api/apps.ts";

export type { RedirectEntry } from "../../contract/api/apps.ts";

/**
 * Spec 1 section 2.2 rule 1, applied to every candidate whatever the match type: https (http
 * only for a loopback host), no userinfo, no fragment. Returns the normalized URL, or null.
 */
export const gateRedirectUri = (candidate: string): string | null => checkRedirectUri(candidate).href;

// Only wildcard and regex entries need RE2, and its module start-up fills tables in loops.
const re2js = onFirstUse(() => require("re2js") as typeof import("re2js"));
const compiled = new Map<string, RE2JS>();

/** RE2 runs in time linear in the input, so no pattern can make matching backtrack for ever. */
function compile(pattern: string): RE2JS {
  let re = compiled.get(pattern);
  if (!re) {
    re = re2js().RE2JS.compile(pattern);
    if (compiled.size > 1000) compiled.clear();
    compiled.set(pattern, re);
  }
  return re;
}

function matchesEntry(entry: RedirectEntry, normalized: string): boolean {
  switch (entry.match) {
    case "equals":
      return gateRedirectUri(entry.uri) === normalized;
    case "wildcard":
      return compile(globToRegex(entry.uri)).matcher(normalized).matches();
    case "regex":
      return compile(entry.uri).matcher(normalized).matches();
  }
}

/** The registered entry a candidate matches (after the safety gate), or null. */
export function matchRedirectUri(entries: readonly RedirectEntry[], candidate: string): RedirectEntry | null {
  const normalized = gateRedirectUri(candidate);
  if (normalized === null) return null;
  return entries.find((entry) => matchesEntry(entry, normalized)) ?? null;
}

/**
 * Why a registered entry is refused, in a sentence for people naming the app when known, or null.
 * A regex that matches everything is allowed (spec rule 3) but flagged.
 */
export function redirectEntryProblem(entry: RedirectEntry, app: string | null = null): string | null {
  if (entry.match === "equals") {
    const { fault } = checkRedirectUri(entry.uri);
    return fault && redirectFaultText(fault, entry.uri, { app });
  }
  const pattern = { uri: entry.uri, match: entry.match };
  if (pattern.uri.length === 0 || pattern.uri.length > MAX_REDIRECT_PATTERN) return patternFaultText("pattern_length", pattern, { app });
  try {
    compile(pattern.match === "wildcard" ? globToRegex(pattern.uri) : pattern.uri);
  } catch (e) {
    return patternFaultText("pattern_invalid", pattern, { app, reason: (e as Error).message });
  }
  return null;
}

/** True for a pattern that accepts any URL at all (the UI warns about it). */
export function isCatchAll(entry: RedirectEntry): boolean {
  if (entry.match === "equals") return false;
  const re = compile(entry.match === "wildcard" ? globToRegex(entry.uri) : entry.uri);
  return ["https://evil.example/", "https://attacker.test/steal?code=1", "https://a.b/c"].every((u) => re.matcher(u).matches());
}
