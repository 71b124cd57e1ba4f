import type { SessionRow } from "./sessions/sessions.table.ts";
import type { UserRow } from "./users/users.table.ts";

// The auth kernel's principals carry identity's own rows: every field of the user and session
// is readable where a principal is, while the kernel stays free of identity's tables.
declare module "../auth/principal.ts" {
  interface PrincipalUser extends UserRow {}
  interface PrincipalSession extends SessionRow {}
}
