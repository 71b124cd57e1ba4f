import { MAX_FORWARD_AUTH_RULES } from "../../contract/forward-auth.ts";
import { describedError } from "../../shared/errors.ts";

/**
 * Errors of the rules API (`/api/oauth/admin/forward-auth/rules`), in RFC 6749's shape like the
 * rest of `/api/oauth/admin`. A rule that cannot be kept names its field: `host: ...`.
 */
export const invalidRule = (field: string, problem: string) => describedError(400, "invalid_rule", `${field}: ${problem}`);

/** An unknown id: the identity API's own not-found. */
export const ruleNotFound = () => describedError(404, "not_found", "Rule not found.");

/** The instance keeps so many rules already. */
export const tooManyRules = () =>
  describedError(409, "conflict", `Cairn keeps at most ${MAX_FORWARD_AUTH_RULES.toLocaleString("en")} forward-auth rules: delete one first.`);
