import { DEFAULT_IDENTITY_HEADERS, type IdentityHeaderKey, MAX_RULE_LIST } from "../../contract/forward-auth.ts";
import { invalidRule } from "./rules.errors.ts";
import { prefixForm, splitHost } from "./rules.normalize.ts";
import type { HeaderNames } from "./rules.table.ts";

// The checks of a rule's fields, each naming its field; each answers the form rules are kept in.

/**
 * `host`: a host name, lower-cased, with an optional port; `*.` in front for every host below it.
 * Refused with what is wrong: a scheme, a path, user info, an IDN not in punycode, an inner `*`.
 */
export function checkedHost(raw: string): string {
  const host = raw.trim();
  const problem = hostProblem(host);
  if (problem) throw invalidRule("host", problem);
  const wild = host.startsWith("*.");
  const parsed = splitHost(wild ? host.slice(2) : host);
  if (parsed === null) {
    throw invalidRule("host", "a host name is labels of letters, digits and hyphens separated by dots, with an optional :port from 1 to 65535.");
  }
  return `${wild ? "*." : ""}${parsed.name}${parsed.port === null ? "" : `:${parsed.port}`}`;
}

function hostProblem(host: string): string | null {
  if (host === "") return "a host name is required.";
  if (host.length > 260) return "a host name has at most 253 characters.";
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(host)) return "give the host name alone, without a scheme such as https://.";
  if (/[/?#\\]/.test(host)) return "give the host name alone, without a path.";
  if (host.includes("@")) return "give the host name alone, without user info.";
  if (/[^\x21-\x7e]/.test(host)) return "write an internationalized name in punycode (xn--...), without spaces.";
  if (host.startsWith("[")) return "an IP address in brackets cannot be named: use a host name.";
  if (host.slice(host.startsWith("*.") ? 2 : 0).includes("*")) return "a wildcard can only be a leading *. (as in *.home.example).";
  return null;
}

/** `path_prefixes`, `bypass_paths`: each from `/`, kept strictly read and without a trailing slash; duplicates dropped. */
export function checkedPaths(field: string, raw: string[]): string[] {
  if (raw.length > MAX_RULE_LIST) throw invalidRule(field, `at most ${MAX_RULE_LIST} paths.`);
  const paths = raw.map((path) => {
    if (!path.startsWith("/")) throw invalidRule(field, `each path starts with / (${JSON.stringify(path.slice(0, 40))} does not).`);
    if (path.length > 1024) throw invalidRule(field, "a path has at most 1024 characters.");
    if (/[^\x21-\x7e]/.test(path)) throw invalidRule(field, "a path has no spaces or control characters; escape others as %XX.");
    if (/[?#\\;]/.test(path)) throw invalidRule(field, "a path has no query (?), fragment (#), backslash or ;.");
    if (path.includes("//")) throw invalidRule(field, "a path has no empty segment (//).");
    if (/%(?![0-9A-Fa-f]{2})/.test(path)) throw invalidRule(field, "a % must start an escape such as %20.");
    return prefixForm(path) as string;
  });
  return [...new Set(paths)];
}

/** RFC 9110 section 5.6.2: a token, for methods and header names. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** `methods`: tokens, upper-cased; duplicates dropped. */
export function checkedMethods(raw: string[]): string[] {
  if (raw.length > MAX_RULE_LIST) throw invalidRule("methods", `at most ${MAX_RULE_LIST} methods.`);
  for (const m of raw) if (!TOKEN.test(m) || m.length > 32) throw invalidRule("methods", "each method is a word such as GET or POST.");
  return [...new Set(raw.map((m) => m.toUpperCase()))];
}

/** Header names the check's own answer needs, or that a proxy reads for itself: never an identity header. */
const RESERVED_HEADERS = new Set([
  "authorization",
  "cache-control",
  "connection",
  "content-encoding",
  "content-length",
  "content-security-policy",
  "content-type",
  "cookie",
  "cross-origin-opener-policy",
  "date",
  "forwarded",
  "host",
  "keep-alive",
  "location",
  "proxy-authenticate",
  "proxy-authorization",
  "referrer-policy",
  "server",
  "set-cookie",
  "strict-transport-security",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
  "vary",
  "www-authenticate",
  "x-content-type-options",
  "x-frame-options",
  "x-request-id",
]);

/** `headers`: names to use instead of the defaults (an empty or null one keeps its default); four distinct names. */
export function checkedHeaders(raw: Partial<Record<IdentityHeaderKey, string | null>>): HeaderNames {
  const names: HeaderNames = {};
  for (const key of Object.keys(DEFAULT_IDENTITY_HEADERS) as IdentityHeaderKey[]) {
    const name = raw[key]?.trim();
    if (!name) continue;
    const field = `headers.${key}`;
    if (!TOKEN.test(name) || name.length > 64) throw invalidRule(field, "a header name is letters, digits and hyphens, at most 64 characters.");
    const lower = name.toLowerCase();
    if (RESERVED_HEADERS.has(lower) || /^x-(forwarded|original)-/.test(lower)) throw invalidRule(field, `${name} is a header HTTP or the proxy uses itself.`);
    names[key] = name;
  }
  const used = Object.values(headerNamesIn(names)).map((n) => n.toLowerCase());
  if (new Set(used).size !== used.length) throw invalidRule("headers", "the four identity headers need four different names.");
  return names;
}

/** The names in use: the rule's, else the defaults. */
export const headerNamesIn = (names: HeaderNames): Record<IdentityHeaderKey, string> => ({ ...DEFAULT_IDENTITY_HEADERS, ...names });

/** `allow.teams`, `allow.groups`: ids as given, duplicates dropped (that they exist is the service's check). */
export function checkedIds(field: string, raw: string[], shape: RegExp): string[] {
  if (raw.length > MAX_RULE_LIST) throw invalidRule(field, `at most ${MAX_RULE_LIST} entries.`);
  for (const id of raw)
    if (!shape.test(id))
      throw invalidRule(field, `${JSON.stringify(id.slice(0, 80))} is not ${field === "allow.groups" ? "<team id>/<group slug>" : "a team id"}.`);
  return [...new Set(raw)];
}
