import { DEFAULT_IDENTITY_HEADERS as HEADER_DEFAULTS, type IdentityHeaderKey as HeaderKey } from "../../../../src/contract/forward-auth.ts";
import type { ForwardAuthRule, ForwardAuthRuleInput } from "../../api/forward-auth.ts";

export { HEADER_DEFAULTS, type HeaderKey };

/** A rule as its form holds it: lists as typed (separated by spaces), an empty header name for the default. */
export type RuleForm = {
  host: string;
  paths: string;
  methods: string;
  everyone: boolean;
  admins: boolean;
  teams: string[];
  groups: string[];
  require_mfa: boolean;
  bypass: string;
  headers: Record<HeaderKey, string>;
};

export type RuleFormErrors = Partial<Record<"host" | "paths" | "methods" | "allow" | "bypass" | "headers" | "form", string>>;

const words = (typed: string) => typed.split(/[\s,]+/).filter(Boolean);

export function formOf(rule: Partial<ForwardAuthRule> = {}): RuleForm {
  const headers = { ...HEADER_DEFAULTS, ...rule.headers };
  return {
    host: rule.host ?? "",
    paths: (rule.path_prefixes ?? []).join(" "),
    methods: (rule.methods ?? []).join(" "),
    everyone: rule.allow?.everyone ?? true,
    admins: rule.allow?.admins ?? false,
    teams: rule.allow?.teams ?? [],
    groups: rule.allow?.groups ?? [],
    require_mfa: rule.require_mfa ?? false,
    bypass: (rule.bypass_paths ?? []).join(" "),
    headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, v === HEADER_DEFAULTS[k as HeaderKey] ? "" : v])) as Record<HeaderKey, string>,
  };
}

/** The body of a create or a whole-rule change: every field, so an edit replaces what was there. */
export function inputOf(form: RuleForm): ForwardAuthRuleInput {
  return {
    host: form.host.trim(),
    path_prefixes: words(form.paths),
    methods: words(form.methods).map((m) => m.toUpperCase()),
    allow: { everyone: form.everyone, admins: form.admins, teams: form.teams, groups: form.groups },
    require_mfa: form.require_mfa,
    bypass_paths: words(form.bypass),
    headers: Object.fromEntries(Object.entries(form.headers).map(([k, v]) => [k, v.trim() || null])),
  };
}

/** `host: give the host name alone…` (the API's `invalid_rule`) beside the field it names, as a sentence. */
export function errorsOf(message: string): RuleFormErrors {
  const found = /^([\w.]+):\s*(.+)$/s.exec(message);
  if (!found) return { form: message };
  const [, field = "", said = ""] = found;
  const text = `${said.charAt(0).toUpperCase()}${said.slice(1)}`;
  if (field === "host") return { host: text };
  if (field === "path_prefixes") return { paths: text };
  if (field === "methods") return { methods: text };
  if (field === "bypass_paths") return { bypass: text };
  if (field.startsWith("allow")) return { allow: text };
  if (field.startsWith("headers")) return { headers: text };
  return { form: message };
}

/** Who passes, in words, with the names of the teams and groups (`names` maps their ids). */
export function whoPasses(rule: ForwardAuthRule, names: Map<string, string>): string {
  const { everyone, admins, teams, groups } = rule.allow;
  if (everyone) return "everyone signed in";
  const who = [...(admins ? ["administrators"] : []), ...teams.map((t) => `team ${names.get(t) ?? t}`), ...groups.map((g) => `group ${names.get(g) ?? g}`)];
  return who.length ? who.join(", ") : "nobody (only the bypass paths)";
}
