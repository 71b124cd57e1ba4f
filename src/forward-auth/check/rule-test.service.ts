import { eq } from "drizzle-orm";
import type { ForwardAuthTestResult } from "../../contract/api/forward-auth.ts";
import type { AppContext } from "../../context/context.ts";
import { missing } from "../../identity/users/identity.errors.ts";
import { users } from "../../identity/users/users.table.ts";
import { currentRules } from "../rules/rules.cache.ts";
import { matchRequest } from "../rules/rules.match.ts";
import { identityOf } from "./callers.ts";
import { type Caller, type Decision, decide } from "./decide.ts";
import { requestAt } from "./forwarded-request.ts";
import { identityHeaders } from "./identity-headers.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "identity" | "forwardAuth" | "forwardAuthCheck">;

function reasonOf(decision: Decision, disabled: boolean): string {
  switch (decision.kind) {
    case "no_rule":
      return "No rule covers this host, path and method: the check answers 403.";
    case "bypass":
      return "A bypass path of this rule: it passes without a session and without identity headers.";
    case "sign_in":
      return disabled
        ? "The account is disabled: its sessions no longer count, so the check answers as for someone signed out (a redirect to sign in; 401 for nginx)."
        : "Signed out: the check sends the person to sign in (a redirect; 401 for nginx).";
    case "mfa":
      return "The rule requires a second factor: a session without one is sent to sign in again with it (401 for nginx).";
    case "deny":
      return `Refused with 403: ${decision.reason}.`;
    case "allow":
      return "Allowed: 200 with the identity headers below.";
  }
}

/**
 * `POST /api/oauth/admin/forward-auth/test`: what the check would answer for `url`, signed out or
 * as `user_id` with a fresh session without a second factor. The check's own functions decide.
 */
export async function testRule(ctx: Ctx, input: { url: string; method?: string; user_id?: string }): Promise<ForwardAuthTestResult> {
  const match = matchRequest(await currentRules(ctx), requestAt(input.url, input.method?.toUpperCase() ?? "GET", "url"));
  let caller: Caller = null;
  let disabled = false;
  if (input.user_id !== undefined) {
    if (!(await ctx.db.select({ id: users.id }).from(users).where(eq(users.id, input.user_id)).get())) throw missing("User");
    const identity = await identityOf(ctx, input.user_id);
    disabled = identity === null;
    caller = identity && { kind: "session", identity, mfa: false };
  }
  const decision = decide(match, caller);
  return {
    decision: decision.kind,
    rule_id: decision.kind === "no_rule" ? null : decision.rule.id,
    reason: reasonOf(decision, disabled),
    headers: decision.kind === "allow" ? identityHeaders(decision.rule, decision.identity) : {},
  };
}
