import type { Ok } from "../../../src/contract/api/common.ts";
import type { ForwardAuthRuleAnswer, ForwardAuthRuleInput, ForwardAuthRuleList, ForwardAuthTestResult } from "../../../src/contract/api/forward-auth.ts";
import type { ProxyKind } from "../../../src/contract/api/integration-lists.ts";
import type { ProxySnippet } from "../../../src/contract/api/integrations.ts";
import type { TeamDetail, TeamPage } from "../../../src/contract/api/teams.ts";
import { query, request } from "./http.ts";

export type { ForwardAuthRule, ForwardAuthRuleInput, ForwardAuthTestResult } from "../../../src/contract/api/forward-auth.ts";
export type { ProxySnippet } from "../../../src/contract/api/integrations.ts";

/** A team or group a rule may let through: `value` as the rule names it (a team id, `<teamId>/<slug>`). */
export type RuleChoice = { value: string; label: string };

const get = async <T>(path: string) => (await request<T>("GET", path)).data;
const send = async <T>(method: string, path: string, body?: unknown) => (await request<T>(method, path, body)).data;
const RULES = "/api/oauth/admin/forward-auth/rules";
const rulePath = (id: string) => `${RULES}/${encodeURIComponent(id)}`;

/** Client of forward auth's administration (admins only): the rules, "test this rule" and the proxies' configuration. */
export const forwardAuthApi = {
  /** In order: the first rule that matches a request decides. */
  rules: async () => (await get<ForwardAuthRuleList>(RULES)).rules,
  create: async (input: ForwardAuthRuleInput) => (await send<ForwardAuthRuleAnswer>("POST", RULES, input)).rule,
  /** The fields given replace the rule's; `position` moves it there (from 0). */
  update: async (id: string, patch: Partial<ForwardAuthRuleInput>) => (await send<ForwardAuthRuleAnswer>("PATCH", rulePath(id), patch)).rule,
  remove: (id: string) => send<Ok>("DELETE", rulePath(id)),
  /** What the check would answer for `url`: signed out, or as `user_id` with a session without a second factor. */
  test: (input: { url: string; method?: string; user_id?: string }) => send<ForwardAuthTestResult>("POST", "/api/oauth/admin/forward-auth/test", input),
  /** The proxy's configuration protecting the app at `app_url`, in front of `upstream`. */
  snippet: (input: { kind: ProxyKind; app_url: string; upstream: string }) => send<ProxySnippet>("POST", "/api/oauth/admin/forward-auth/snippet", input),

  /** Every team and group of the instance (the site API), for choosing who passes. */
  choices: async (): Promise<{ teams: RuleChoice[]; groups: RuleChoice[] }> => {
    const { teams } = await get<TeamPage>(`/api/oauth/site/teams${query({ limit: 200 })}`);
    const details = await Promise.all(teams.map((t) => get<TeamDetail>(`/api/oauth/site/teams/${encodeURIComponent(t.id)}`)));
    return {
      teams: teams.map((t) => ({ value: t.id, label: t.name })),
      groups: details.flatMap((d) => d.groups.map((g) => ({ value: `${d.team.id}/${g.slug}`, label: `${d.team.name} / ${g.name}` }))),
    };
  },
};
