// Spec 1 section 2.2 rule 1 and its refusals in words for people: shared by the server's redirect
// gate (src/oauth/protocol/redirect-uri.ts) and the web app's form, which checks before sending.

/** The longest redirect URI kept (a request's, or a registered one). */
export const MAX_REDIRECT_URI = 2048;
/** The longest wildcard or regex pattern registered. */
export const MAX_REDIRECT_PATTERN = 1024;

/** A loopback host name as URL parsing leaves it: `localhost`, `127.x.y.z` or `[::1]`. */
export const isLoopbackHost = (hostname: string) => hostname === "localhost" || hostname === "[::1]" || /^127(\.\d{1,3}){3}$/.test(hostname);

/** Why an address fails the gate: each has its own sentence (redirectFaultText). */
export type RedirectFault = "too_long" | "not_url" | "scheme" | "http_not_loopback" | "userinfo" | "fragment";

/**
 * Spec 1 section 2.2 rule 1: https (http only for a loopback host), no userinfo, no fragment. The
 * first rule `candidate` breaks, or its normalized form (WHATWG URL serialization).
 */
export function checkRedirectUri(candidate: string): { href: string; fault: null } | { href: null; fault: RedirectFault } {
  if (candidate.length > MAX_REDIRECT_URI) return { href: null, fault: "too_long" };
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    return { href: null, fault: "not_url" };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return { href: null, fault: "scheme" };
  if (url.protocol === "http:" && !isLoopbackHost(url.hostname)) return { href: null, fault: "http_not_loopback" };
  if (url.username !== "" || url.password !== "") return { href: null, fault: "userinfo" };
  // An empty fragment ("…/cb#") leaves no hash on the URL, so the text decides.
  if (candidate.includes("#")) return { href: null, fault: "fragment" };
  return { href: url.href, fault: null };
}

/** Which address a message is about: where sign-in results go, or where people land after signing out. */
export type AddressRole = "redirect" | "post_logout";

/** "Grafana's", "Jenkins'": the app named where it is known. */
const possessive = (name: string) => (/s$/i.test(name) ? `${name}'` : `${name}'s`);

function subject(app: string | null, role: AddressRole): string {
  const what = role === "redirect" ? "address" : "address after sign-out";
  return app ? `${possessive(app)} ${what}` : `The ${what}`;
}

/** One sentence per fault, naming the app when known and quoting the address (the form finds its row by it). */
export function redirectFaultText(
  fault: RedirectFault,
  uri: string,
  { app = null, role = "redirect" }: { app?: string | null; role?: AddressRole } = {},
): string {
  const it = `${subject(app, role)} “${uri}”`;
  switch (fault) {
    case "too_long":
      return `${subject(app, role)} is longer than ${MAX_REDIRECT_URI} characters.`;
    case "not_url":
      return `${it} is not a full web address: write it with https:// and the host name, such as https://app.example.com/callback.`;
    case "scheme":
      return `${it} must start with https://, or http:// on this machine (localhost); other kinds of address are not accepted.`;
    case "http_not_loopback":
      return `${it} must start with https://, or be on this machine (localhost).`;
    case "userinfo":
      return `${it} must not contain a user name or password (the part before @).`;
    case "fragment":
      return `${it} must not contain a # part: remove the # and everything after it.`;
  }
}

/** Why a wildcard or regex pattern is refused. */
export type PatternFault = "pattern_length" | "pattern_invalid";

const PATTERN_NAME = { wildcard: "wildcard pattern", regex: "regular expression" } as const;
const PATTERN_HINT = {
  wildcard: "A * stands for any run of characters; the rest matches as written.",
  regex: "Check its brackets and escapes (RE2 syntax: no backreferences or lookarounds).",
} as const;

/** One sentence per pattern fault; `reason` is the compiler's own words, for an invalid pattern. */
export function patternFaultText(
  fault: PatternFault,
  entry: { uri: string; match: "wildcard" | "regex" },
  { app = null, reason = "" }: { app?: string | null; reason?: string } = {},
): string {
  const name = app ? `${possessive(app)} ${PATTERN_NAME[entry.match]}` : `The ${PATTERN_NAME[entry.match]}`;
  if (fault === "pattern_length") return `${name} must be 1 to ${MAX_REDIRECT_PATTERN} characters long.`;
  return `${name} “${entry.uri}” is not valid${reason ? `: ${reason}` : ""}. ${PATTERN_HINT[entry.match]}`;
}
