import type { Principal } from "../../access/principal.ts";

/**
 * Whether an app registered by `principal` starts with the verified mark: a site admin registering
 * it in the dashboard or the catalog vouches for it as by marking it (issue 42). A token acting for
 * an admin does not: an app holding `apps:write` must not make apps that look checked. Dynamic
 * registration (RFC 7591) never starts verified.
 */
export const canRegisterVerified = (principal: Principal): boolean => principal.kind === "session" && principal.user.role === "admin";
