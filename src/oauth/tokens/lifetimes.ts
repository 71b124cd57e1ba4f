/** ARCHITECTURE section 4, "Lifetimes". */
export const CODE_TTL_MS = 60_000;
export const ACCESS_TOKEN_TTL_S = 3600;
export const ID_TOKEN_TTL_S = 3600;
export const REFRESH_TOKEN_TTL_MS = 30 * 86_400_000;
export const INTERACTION_TTL_MS = 10 * 60_000;

/** How many exchanges a token may be from the grant its user made (each adds a lookup to its every use). */
export const MAX_EXCHANGE_DEPTH = 4;

/**
 * How long after its refresh window (or, without one, its creation) a grant may still have a live
 * token: its last access token, issued just before the window closed, and those of grants
 * exchanged from it (RFC 8693), each issued while the token it was exchanged from lived and
 * ending with its grant's lineage. After that the purge deletes it.
 */
export const GRANT_OUTLIVES_ITS_WINDOW_MS = (MAX_EXCHANGE_DEPTH + 1) * ACCESS_TOKEN_TTL_S * 1000;
