import type { ForwardAuthRule, ForwardAuthRuleInput } from "../../contract/api/forward-auth.ts";
import { MAX_FORWARD_AUTH_RULES } from "../../contract/forward-auth.ts";
import type { AppContext } from "../../context/context.ts";
import { withTx } from "../../db/tx.ts";
import { audit } from "../../identity/audit/audit.service.ts";
import { invalidRule, ruleNotFound, tooManyRules } from "./rules.errors.ts";
import {
  countRules,
  findRule,
  insertRule,
  renumberRules,
  selectRules,
  unknownGroups,
  unknownTeams,
  updateRule as writeRule,
  deleteRule as removeRule,
} from "./rules.repo.ts";
import type { RuleRow } from "./rules.table.ts";
import { checkedHeaders, checkedHost, checkedIds, checkedMethods, checkedPaths } from "./rules.validate.ts";
import { ruleView } from "./rules.view.ts";

type Ctx = Pick<AppContext, "db" | "clock">;
type Values = Omit<RuleRow, "id" | "position" | "createdAt" | "updatedAt">;

const TEAM_ID = /^[^\s/]{1,64}$/;
const GROUP_NAME = /^[^\s/]{1,64}\/[a-z0-9][a-z0-9_-]{0,62}$/;
/** What a new rule holds where its body says nothing: every path and method, no second factor, default headers. */
const DEFAULTS = { pathPrefixes: [], methods: [], requireMfa: false, bypassPaths: [], headers: {} } satisfies Partial<Values>;

export const listRules = async (ctx: Pick<AppContext, "db">): Promise<ForwardAuthRule[]> => (await selectRules(ctx.db)).map(ruleView);

/** Adds a rule at `position` (absent: last), moving the rules from there one down. */
export function createRule(ctx: Ctx, actorId: string, body: ForwardAuthRuleInput): Promise<ForwardAuthRule> {
  return withTx(ctx.db, async () => {
    // `host` and `allow` are required by the body schema.
    const values = { ...DEFAULTS, ...(await checkedValues(ctx, body)) } as Values;
    const at = checkedPosition(body.position);
    if ((await countRules(ctx.db)) >= MAX_FORWARD_AUTH_RULES) throw tooManyRules();
    const now = ctx.clock.now();
    const id = crypto.randomUUID();
    // Past every number in use, then renumbered into place: order holds whatever numbers the rows had.
    await insertRule(ctx.db, { id, ...values, position: Number.MAX_SAFE_INTEGER, createdAt: now, updatedAt: now });
    await renumberRules(ctx.db, { id, at: at ?? MAX_FORWARD_AUTH_RULES });
    await audit(ctx, { actorUserId: actorId, action: "forward_auth.rule_created", details: { id, host: values.host } });
    return ruleView((await findRule(ctx.db, id)) as RuleRow);
  });
}

/** Changes the fields given (each replaced whole); `position` moves the rule there. */
export function updateRule(ctx: Ctx, actorId: string, id: string, body: Partial<ForwardAuthRuleInput>): Promise<ForwardAuthRule> {
  return withTx(ctx.db, async () => {
    const values = await checkedValues(ctx, body);
    const at = checkedPosition(body.position);
    const row = await findRule(ctx.db, id);
    if (row === null) throw ruleNotFound();
    await writeRule(ctx.db, id, { ...values, updatedAt: ctx.clock.now() });
    if (at !== undefined) await renumberRules(ctx.db, { id, at });
    await audit(ctx, { actorUserId: actorId, action: "forward_auth.rule_updated", details: { id, host: values.host ?? row.host, changed: Object.keys(body) } });
    return ruleView((await findRule(ctx.db, id)) as RuleRow);
  });
}

export async function deleteRule(ctx: Ctx, actorId: string, id: string): Promise<void> {
  await withTx(ctx.db, async () => {
    const row = await findRule(ctx.db, id);
    if (row === null || !(await removeRule(ctx.db, id))) throw ruleNotFound();
    await renumberRules(ctx.db);
    await audit(ctx, { actorUserId: actorId, action: "forward_auth.rule_deleted", details: { id, host: row.host } });
  });
}

/** The fields given, checked and in their stored form; the teams and groups `allow` names must exist. */
async function checkedValues(ctx: Ctx, body: Partial<ForwardAuthRuleInput>): Promise<Partial<Values>> {
  const values: Partial<Values> = {};
  if (body.host !== undefined) values.host = checkedHost(body.host);
  if (body.path_prefixes !== undefined) values.pathPrefixes = checkedPaths("path_prefixes", body.path_prefixes);
  if (body.methods !== undefined) values.methods = checkedMethods(body.methods);
  if (body.allow !== undefined) {
    const teams = checkedIds("allow.teams", body.allow.teams ?? [], TEAM_ID);
    const groups = checkedIds("allow.groups", body.allow.groups ?? [], GROUP_NAME);
    const [team] = await unknownTeams(ctx.db, teams);
    if (team !== undefined) throw invalidRule("allow.teams", `no team has the id ${JSON.stringify(team)}.`);
    const [group] = await unknownGroups(ctx.db, groups);
    if (group !== undefined) throw invalidRule("allow.groups", `no group ${JSON.stringify(group)} (<team id>/<group slug>).`);
    values.allow = { everyone: body.allow.everyone ?? false, teams, groups, admins: body.allow.admins ?? false };
  }
  if (body.require_mfa !== undefined) values.requireMfa = body.require_mfa;
  if (body.bypass_paths !== undefined) values.bypassPaths = checkedPaths("bypass_paths", body.bypass_paths);
  if (body.headers !== undefined) values.headers = checkedHeaders(body.headers);
  return values;
}

function checkedPosition(position: number | undefined): number | undefined {
  if (position !== undefined && position < 0) throw invalidRule("position", "a position counts from 0.");
  return position;
}
