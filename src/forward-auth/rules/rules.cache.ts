import type { AppContext } from "../../context/context.ts";
import { compileRules, type RuleSet } from "./rules.match.ts";
import { selectRules } from "./rules.repo.ts";
import { compiledRule } from "./rules.view.ts";
import { tableVersionNow } from "../../db/table-version.ts";

type Ctx = Pick<AppContext, "db" | "forwardAuth">;

/**
 * The rules, compiled, from memory: read and compiled again exactly when `forward_auth_rules`
 * changed (triggers move its version on every write: any worker, the CLI, plain SQL). Kept ones
 * are answered as they are, not in a promise: the check asks on every proxied request.
 */
export function currentRules(ctx: Ctx): RuleSet | Promise<RuleSet> {
  // The version is read before the rows: a change landing between shows as a new version next time.
  const version = tableVersionNow(ctx.db, "forward_auth_rules");
  return typeof version === "number" ? rulesAt(ctx, version) : version.then((v) => rulesAt(ctx, v));
}

function rulesAt(ctx: Ctx, version: number): RuleSet | Promise<RuleSet> {
  const cache = ctx.forwardAuth.rules;
  return cache.set !== null && cache.version === version ? cache.set : readRules(ctx, version);
}

async function readRules(ctx: Ctx, version: number): Promise<RuleSet> {
  const set = compileRules((await selectRules(ctx.db)).map(compiledRule));
  const cache = ctx.forwardAuth.rules;
  cache.set = set;
  cache.version = version;
  return set;
}
