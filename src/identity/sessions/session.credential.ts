import type { AppContext } from "../../context/context.ts";
import type { CredentialResolver } from "../../access/credentials.ts";
import { sessionCookie } from "./session-cookie.ts";
import { validateSessionJwt } from "./sessions.service.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "config" | "secrets" | "keys" | "identity">;

// A session JWT has three dot-separated parts; no other credential kind has a dot.
const isJwt = (value: string) => value.split(".").length === 3;

/** The session JWT (ARCHITECTURE section 3), as the `cairn_session` cookie or as Bearer. */
export function sessionCredentials(ctx: Ctx): CredentialResolver[] {
  const resolver = (viaCookie: boolean): CredentialResolver => ({
    from: viaCookie ? "cookie" : "bearer",
    accepts: isJwt,
    async resolve(token) {
      const active = await validateSessionJwt(ctx, token);
      if (!active) return null;
      return { kind: "session", ...active, viaCookie, token, ...(viaCookie && active.slid ? { renewCookie: sessionCookie(ctx.config, token) } : {}) };
    },
  });
  return [resolver(false), resolver(true)];
}
