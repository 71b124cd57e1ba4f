import type { JWTVerifyGetKey } from "jose";
import type { Configuration } from "openid-client";
import type { Db } from "../db/client.ts";
import { createPatsRepo, type PatsRepo } from "./pats/pats.lookup.ts";
import { createSessionsRepo, type SessionsRepo } from "./sessions/sessions.service.ts";
import type { SessionRow } from "./sessions/sessions.table.ts";
import { createUsersRepo, type UsersRepo } from "./users/users.repo.ts";
import type { UserRow } from "./users/users.table.ts";

// The access kernel's principals carry identity's own rows: every field of the user and session
// is readable where a principal is, while the kernel stays free of identity's tables.
declare module "../access/principal.ts" {
  interface PrincipalUser extends UserRow {}
  interface PrincipalSession extends SessionRow {}
}

/** What identity keeps for one app: its repositories (statements prepared once) and verified session JWTs. */
export type IdentityRuntime = {
  users: UsersRepo;
  sessions: SessionsRepo;
  pats: PatsRepo;
  verifiedSessions: Map<string, { sid: string; exp: number }>;
  /** Upstream OpenID providers' discovered configurations and key sets, by provider id and version. */
  upstreams: Map<string, { at: number; config: Configuration; keys: JWTVerifyGetKey }>;
};

declare module "../context/context.ts" {
  interface AppContext {
    identity: IdentityRuntime;
  }
}

export function createIdentityRuntime(db: Db): IdentityRuntime {
  return { users: createUsersRepo(db), sessions: createSessionsRepo(db), pats: createPatsRepo(db), verifiedSessions: new Map(), upstreams: new Map() };
}
