import type { AppContext } from "../../context/context.ts";
import { tableVersion } from "../../db/table-version.ts";
import { compileRules, type RuleSet } from "./rules.match.ts";
import { selectRules } from "./rules.repo.ts";
import { compiledRule } from "./rules.view.ts";

/**
 * The rules, compiled, from memory: read and compiled again exactly when `forward_auth_rules`
 * changed (triggers move its version on every write: any worker, the CLI, plain SQL).
 */
export function currentRules(ctx: Pick<AppContext, "db" | "forwardAuth">): RuleSet {
  const cache = ctx.forwardAuth.rules;
  // The version is read before the rows: a change landing between shows as a new version next time.
  const version = tableVersion(ctx.db, "forward_auth_rules");
  if (cache.set === null || cache.version !== version) {
    cache.set = compileRules(selectRules(ctx.db).map(compiledRule));
    cache.version = version;
  }
  return cache.set;
}
