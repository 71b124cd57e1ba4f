import type { CompiledRule, Match } from "../rules/rules.match.ts";
import type { Identity } from "./identity-headers.ts";

/** Who presented what: a cookie session (with or without a second factor), a personal access token, or nobody. */
export type Caller = { kind: "session"; identity: Identity; mfa: boolean } | { kind: "pat"; identity: Identity } | null;

/** What the check answers, before a proxy's flavour turns it into a status (check.answers.ts). */
export type Decision =
  | { kind: "no_rule" }
  | { kind: "bypass"; rule: CompiledRule }
  | { kind: "sign_in"; rule: CompiledRule }
  | { kind: "mfa"; rule: CompiledRule }
  | { kind: "deny"; rule: CompiledRule; reason: string }
  | { kind: "allow"; rule: CompiledRule; identity: Identity };

/** Whether the rule lets this person through: any one of its kinds of allowance will do. */
export function mayPass(allow: CompiledRule["allow"], identity: Identity): boolean {
  return (
    allow.everyone ||
    (allow.admins && identity.admin) ||
    allow.teams.some((id) => identity.teamIds.has(id)) ||
    allow.groups.some((group) => identity.groups.has(group))
  );
}

/**
 * The check's decision: no rule, a bypass path, then who the caller is. Whether the person may
 * pass comes before the second factor, so nobody is asked for one only to be refused after.
 * A second factor is judged as the OAuth step-up judges `acr_values=mfa`: the session's `acr`.
 */
export function decide(match: Match, caller: Caller): Decision {
  if (match.kind === "none") return { kind: "no_rule" };
  const { rule } = match;
  if (match.kind === "bypass") return { kind: "bypass", rule };
  if (caller === null) return { kind: "sign_in", rule };
  if (!mayPass(rule.allow, caller.identity)) return { kind: "deny", rule, reason: "the rule does not let this person through" };
  if (rule.requireMfa) {
    if (caller.kind === "pat") return { kind: "deny", rule, reason: "the rule requires a second factor, which a personal access token cannot show" };
    if (!caller.mfa) return { kind: "mfa", rule };
  }
  return { kind: "allow", rule, identity: caller.identity };
}
