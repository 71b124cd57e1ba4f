// Pure data shared by the server and the web app (src/contract imports nothing outside itself).

/** A team's roles, highest first: owner > co-owner > admin > member (ARCHITECTURE section 4, Teams). */
export const TEAM_ROLES = ["owner", "co-owner", "admin", "member"] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];
