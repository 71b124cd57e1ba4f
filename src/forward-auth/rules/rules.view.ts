import type { ForwardAuthRule } from "../../contract/api/forward-auth.ts";
import type { CompiledRule } from "./rules.match.ts";
import type { RuleRow } from "./rules.table.ts";
import { headerNamesIn } from "./rules.validate.ts";

/** A rule as the API answers it: every field, the header names in use. */
export const ruleView = (row: RuleRow): ForwardAuthRule => ({
  id: row.id,
  host: row.host,
  path_prefixes: row.pathPrefixes,
  methods: row.methods,
  allow: row.allow,
  require_mfa: row.requireMfa,
  bypass_paths: row.bypassPaths,
  headers: headerNamesIn(row.headers),
  position: row.position,
  created_at: row.createdAt,
  updated_at: row.updatedAt,
});

/** A rule as the matcher and the check read it. */
export const compiledRule = (row: RuleRow): CompiledRule => ({
  id: row.id,
  host: row.host,
  pathPrefixes: row.pathPrefixes,
  methods: row.methods,
  allow: row.allow,
  requireMfa: row.requireMfa,
  bypassPaths: row.bypassPaths,
  headers: headerNamesIn(row.headers),
  position: row.position,
});
