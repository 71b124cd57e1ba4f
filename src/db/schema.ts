// Every table of the app, for the typed drizzle client. drizzle-kit finds them by the *.table.ts glob.
export * from "../settings/settings.table.ts";
