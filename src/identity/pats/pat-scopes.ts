// Pure data, imported by the server and by the web app alike.
import { KNOWN_SCOPES } from "../../oauth/scopes.ts";

/** Scopes a personal access token may carry (spec 1 section 2.3). */
export const PAT_SCOPES = ["profile", "profile:write", "email", "apps:read", "apps:write", "teams:read", "teams:write", "teams:create", "teams:delete"] as const;

/** Only administrators may give these to a token: the instance's admin scopes. */
export const ADMIN_PAT_SCOPES = KNOWN_SCOPES.filter((s) => s.startsWith("admin:"));
