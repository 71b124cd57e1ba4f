// Forward auth (issue 45): pure data shared by the server and the web app.

/** The identity headers an allowed request is answered with, unless its rule names others. */
export const DEFAULT_IDENTITY_HEADERS = { user: "Remote-User", email: "Remote-Email", name: "Remote-Name", groups: "Remote-Groups" } as const;
export type IdentityHeaderKey = keyof typeof DEFAULT_IDENTITY_HEADERS;

/** How many rules an instance keeps, and how many paths or methods one rule lists. */
export const MAX_FORWARD_AUTH_RULES = 10_000;
export const MAX_RULE_LIST = 100;
