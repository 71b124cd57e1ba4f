import type { AppContext } from "../../context/context.ts";
import { currentRules } from "../rules/rules.cache.ts";
import { matchRequest } from "../rules/rules.match.ts";
import { cookieCaller, patCaller } from "./callers.ts";
import { presentedCredential } from "./credential.ts";
import { type Decision, decide } from "./decide.ts";
import type { ProtectedRequest } from "./forwarded-request.ts";
import { type Kept, whenKept } from "../../db/table-version.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "config" | "identity" | "forwardAuth" | "forwardAuthCheck">;

/** The check's outcome: a decision, or a personal access token that is no good (401: API clients get no redirect). */
export type Outcome = Decision | { kind: "invalid_token"; scheme: "Bearer" | "Basic" };

/**
 * Forward auth's check (issue 45), all from memory while nothing changed: the rule, then (only
 * where a rule asks) who is calling, then the decision. Credentials are asked for in their order:
 * a PAT as Bearer, a PAT as Basic's password, the cookie. Answered without a promise when all
 * it needs is in memory; a promise only when something must be read.
 */
export function checkRequest(ctx: Ctx, target: ProtectedRequest, request: Request): Kept<Outcome> {
  return whenKept(currentRules(ctx), (rules): Kept<Outcome> => {
    const match = matchRequest(rules, target);
    if (match.kind !== "rule") return decide(match, null);
    const presented = presentedCredential(ctx.config, request);
    if (presented === null) return decide(match, null);
    if (presented.kind === "cookie") return whenKept(cookieCaller(ctx, presented.token), (caller) => decide(match, caller));
    return whenKept(patCaller(ctx, presented.token), (caller) =>
      caller === "invalid" ? { kind: "invalid_token", scheme: presented.scheme } : decide(match, caller),
    );
  });
}
