import { authzCookieName } from "../../access/authz-cookie.ts";
import { readCookie } from "../../access/cookies.ts";
import type { Config } from "../../config/config.ts";
import { PAT_PREFIX } from "../../identity/pats/pats.lookup.ts";

/** What a request to the check carries, in the order it counts: a personal access token (Bearer, or Basic's password), else the cookie. */
export type Presented = { kind: "pat"; token: string; scheme: "Bearer" | "Basic" } | { kind: "cookie"; token: string } | null;

/** A PAT in `Authorization`, or null: any other scheme or value is the app's own business, and the cookie decides. */
function patIn(authorization: string): Presented {
  const space = authorization.indexOf(" ");
  if (space <= 0) return null;
  const scheme = authorization.slice(0, space).toLowerCase();
  const value = authorization.slice(space + 1).trim();
  if (scheme === "bearer") return value.startsWith(PAT_PREFIX) ? { kind: "pat", token: value, scheme: "Bearer" } : null;
  if (scheme !== "basic") return null;
  let decoded: string;
  try {
    decoded = atob(value);
  } catch {
    return null;
  }
  // Basic `anything:cairn_pat_...`: clients that only speak Basic send the token as the password.
  const password = decoded.slice(decoded.indexOf(":") + 1);
  return decoded.includes(":") && password.startsWith(PAT_PREFIX) ? { kind: "pat", token: password, scheme: "Basic" } : null;
}

export function presentedCredential(config: Pick<Config, "issuer">, request: Request): Presented {
  const authorization = request.headers.get("authorization");
  const pat = authorization === null ? null : patIn(authorization);
  if (pat !== null) return pat;
  const cookie = readCookie(request, authzCookieName(config));
  return cookie === null ? null : { kind: "cookie", token: cookie };
}
