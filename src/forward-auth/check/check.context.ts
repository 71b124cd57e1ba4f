import type { Db } from "../../db/client.ts";
import type { Identity } from "./identity-headers.ts";
import { type Kept, versionedCache } from "../../db/table-version.ts";

/** What a forward auth cookie names: its Cairn session, until when, whether it showed a second factor, and who. */
export type CookieSession = { sessionId: string; expiresAt: number; mfa: boolean; identity: Identity };
/** What a personal access token names, and who; `touchedAt`: when its last use was last written. */
export type PatUse = { tokenId: string; expiresAt: number | null; touchedAt: number; identity: Identity };

/** Kept per cache: enough for every browser and token of an instance, bounded against made-up tokens. */
const KEPT = 10_000;

/**
 * The check's memory (issue 45 item 5: no database read while nothing changed): cookies and tokens
 * by their value with the person they name (one lookup a request), unknown values too (a token is
 * random: none becomes valid later), and people by id, for a person's other cookies and tokens.
 * All dropped together when `forward_auth_sessions` moves (migration 0039's triggers), so a
 * sign-out, a revocation, a disabled account or a membership change applies at once, in every process.
 */
export type CheckRuntime = {
  cookies: (token: string, read: () => Promise<CookieSession | null>) => Kept<CookieSession | null>;
  pats: (token: string, read: () => Promise<PatUse | null>) => Kept<PatUse | null>;
  /** Asked only when a cookie or token is read: a promise either way. */
  identities: (userId: string, read: () => Promise<Identity | null>) => Promise<Identity | null>;
};

declare module "../../context/context.ts" {
  interface AppContext {
    forwardAuthCheck: CheckRuntime;
  }
}

const promised =
  <T>(lookup: (key: string, read: () => Promise<T>) => Kept<T>) =>
  async (key: string, read: () => Promise<T>): Promise<T> =>
    await lookup(key, read);

export function createCheckRuntime(db: Db): CheckRuntime {
  return {
    cookies: versionedCache(db, "forward_auth_sessions", KEPT),
    pats: versionedCache(db, "forward_auth_sessions", KEPT),
    identities: promised(versionedCache(db, "forward_auth_sessions", KEPT)),
  };
}
