import { type Static, Type } from "@sinclair/typebox";

/**
 * Forward auth (issue 45): the rules per protected app (`/api/oauth/admin/forward-auth/rules`).
 * Times are milliseconds.
 */

/** A rule as answered: every field present, defaults filled in (`headers` holds the names in use). */
export const ForwardAuthRule = Type.Object({
  id: Type.String(),
  /** Lower-case host, optional `:port`; `*.home.example` matches every host below `home.example`. */
  host: Type.String(),
  /** Empty: every path. Matched on whole segments. */
  path_prefixes: Type.Array(Type.String()),
  /** Empty: every method. */
  methods: Type.Array(Type.String()),
  /** Who passes; several are alternatives, none at all lets only bypass paths through. */
  allow: Type.Object({
    everyone: Type.Boolean(),
    teams: Type.Array(Type.String()),
    /** `<teamId>/<slug>`. */
    groups: Type.Array(Type.String()),
    admins: Type.Boolean(),
  }),
  require_mfa: Type.Boolean(),
  /** Paths that pass with no session and no identity headers. */
  bypass_paths: Type.Array(Type.String()),
  headers: Type.Object({ user: Type.String(), email: Type.String(), name: Type.String(), groups: Type.String() }),
  /** The rule's place from 0: the first rule that matches decides. */
  position: Type.Number(),
  created_at: Type.Number(),
  updated_at: Type.Number(),
});
export type ForwardAuthRule = Static<typeof ForwardAuthRule>;
export const ForwardAuthRuleList = Type.Object({ rules: Type.Array(ForwardAuthRule) });
export type ForwardAuthRuleList = Static<typeof ForwardAuthRuleList>;
export const ForwardAuthRuleAnswer = Type.Object({ rule: ForwardAuthRule });
export type ForwardAuthRuleAnswer = Static<typeof ForwardAuthRuleAnswer>;

/**
 * What `POST` takes (`host` and `allow` required) and `PATCH` changes (any field). A header name
 * left out, empty or null keeps its default; `position` moves the rule there (absent on create: last).
 */
export type ForwardAuthRuleInput = {
  host: string;
  path_prefixes?: string[];
  methods?: string[];
  allow: { everyone?: boolean; teams?: string[]; groups?: string[]; admins?: boolean };
  require_mfa?: boolean;
  bypass_paths?: string[];
  headers?: { user?: string | null; email?: string | null; name?: string | null; groups?: string | null };
  position?: number;
};

/**
 * `POST /api/oauth/admin/forward-auth/test` (the "test this rule" button): what the check would
 * answer for a URL, signed out or as a person. `headers`: the identity headers, when allowed.
 */
export const ForwardAuthTestResult = Type.Object({
  decision: Type.Union([
    Type.Literal("allow"),
    Type.Literal("bypass"),
    Type.Literal("sign_in"),
    Type.Literal("mfa"),
    Type.Literal("deny"),
    Type.Literal("no_rule"),
  ]),
  rule_id: Type.Union([Type.String(), Type.Null()]),
  reason: Type.String(),
  headers: Type.Record(Type.String(), Type.String()),
});
export type ForwardAuthTestResult = Static<typeof ForwardAuthTestResult>;
