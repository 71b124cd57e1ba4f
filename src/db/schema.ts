// Every table of the app, for the typed drizzle client. drizzle-kit finds them by the *.table.ts glob.
export * from "../auth/rate-limits.table.ts";
export * from "../auth/sessions.table.ts";
export * from "../identity/admin/invites.table.ts";
export * from "../identity/audit/audit.table.ts";
export * from "../identity/passkeys/passkeys.table.ts";
export * from "../identity/pats/pats.table.ts";
export * from "../identity/teams/teams.table.ts";
export * from "../identity/totp/totp.table.ts";
export * from "../identity/users/users.table.ts";
export * from "../oauth/clients/clients.table.ts";
export * from "../oauth/keys/keys.table.ts";
export * from "../oauth/tokens/tokens.table.ts";
export * from "../settings/settings.table.ts";
export * from "../workspace/signin/signin.table.ts";
