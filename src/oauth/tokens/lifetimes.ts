/** ARCHITECTURE section 4, "Lifetimes". */
export const CODE_TTL_MS = 60_000;
export const ACCESS_TOKEN_TTL_S = 3600;
export const ID_TOKEN_TTL_S = 3600;
export const REFRESH_TOKEN_TTL_MS = 30 * 86_400_000;
export const INTERACTION_TTL_MS = 10 * 60_000;
