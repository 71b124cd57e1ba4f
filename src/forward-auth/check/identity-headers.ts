import { DEFAULT_IDENTITY_HEADERS, type IdentityHeaderKey } from "../../contract/forward-auth.ts";
import type { CompiledRule } from "../rules/rules.match.ts";

/** Who a caller is, as the check reads it: what the rules ask and the header values, made once per user. */
export type Identity = {
  userId: string;
  admin: boolean;
  /** Ids of the teams the user is a member of, directly or through a parent team. */
  teamIds: ReadonlySet<string>;
  /** `<teamId>/<slug>` of each group the user is in. */
  groups: ReadonlySet<string>;
  /** The identity headers' values, header-safe (headerValue). */
  values: { user: string; email: string; name: string; groups: string };
};

/** The characters left as they are: visible ASCII and the space, but `%`, which marks an escape. */
const PLAIN = /^[\x20-\x24\x26-\x7e]*$/;
/** Controls (C0, DEL, C1) go: a CR or LF could end the header line. */
const CONTROL = /[\x00-\x1f\x7f-\x9f]/g;

/**
 * A text as a header value: ASCII, never a CR or LF. Anything else is percent-encoded as UTF-8
 * (`Zoë` is `Zo%C3%AB`, `%` itself `%25`), so an app reads it back with one decode whatever
 * its HTTP library does with Latin-1; control characters are dropped.
 */
export function headerValue(text: string): string {
  if (PLAIN.test(text)) return text.trim();
  return text
    .toWellFormed()
    .replace(CONTROL, "")
    .trim()
    .replace(/[^\x20-\x24\x26-\x7e]/gu, (c) => encodeURIComponent(c));
}

/** `Remote-Groups`: each team by name (no commas: they separate), each group as `<team name>/<slug>`, and `admins`. */
export function groupsValue(teams: { name: string; groupSlugs: string[] }[], admin: boolean): string {
  const names: string[] = [];
  for (const team of teams) {
    const name = team.name.replace(/[,\r\n]/g, "");
    names.push(name, ...team.groupSlugs.map((slug) => `${name}/${slug}`));
  }
  if (admin) names.push("admins");
  return headerValue(names.join(","));
}

/** RFC 9110 section 5.1: a field name is a token. */
const FIELD_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,64}$/;
/** A rule's header name, or the default where a stored one is no field name (a row written by hand): it can never split the answer. */
const nameOf = (names: CompiledRule["headers"], key: IdentityHeaderKey) => {
  const name = names[key];
  return FIELD_NAME.test(name) ? name : DEFAULT_IDENTITY_HEADERS[key];
};

/** The identity headers an allowed request is answered with, under the rule's names. */
export function identityHeaders(rule: Pick<CompiledRule, "headers">, identity: Identity): Record<string, string> {
  const { values } = identity;
  return {
    [nameOf(rule.headers, "user")]: values.user,
    [nameOf(rule.headers, "email")]: values.email,
    [nameOf(rule.headers, "name")]: values.name,
    [nameOf(rule.headers, "groups")]: values.groups,
  };
}
