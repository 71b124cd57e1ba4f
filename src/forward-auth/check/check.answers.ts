import type { Context } from "elysia";
import type { Outcome } from "./check.service.ts";
import { identityHeaders } from "./identity-headers.ts";

/** Which proxy asks: Caddy and Traefik follow a redirect the check answers; nginx redirects itself on a 401. */
export type Flavour = "forward-auth" | "auth-request";

/** The sign-in page, coming back to `url` (and asking for a second factor): `base` is the issuer, or "" for a path on Cairn's own host. */
export const signInAddress = (base: string, url: string, mfa: boolean) => `${base}/login?return_to=${encodeURIComponent(url)}${mfa ? "&mfa=required" : ""}`;

/** The answer's status and headers, as Elysia builds the Response from them (cheaper than a Response merged with them). */
type Reply = Pick<Context["set"], "status" | "headers">;

/** A short text for the person the proxy shows it to (no JSON: the check answers every proxied request). */
function text(reply: Reply, status: number, body: string): string {
  reply.status = status;
  reply.headers["content-type"] = "text/plain; charset=utf-8";
  return body;
}

/**
 * The outcome as the proxy needs it, written into `reply`, the body returned: 200 (with the
 * identity headers when allowed), 302 to sign in (401 for nginx, with the same Location), 401 for
 * a bad token (no Location: API clients get no redirect), 403 for no rule or no right.
 */
export function answerCheck(reply: Reply, issuer: string, outcome: Outcome, url: string, flavour: Flavour): string {
  switch (outcome.kind) {
    case "allow":
      Object.assign(reply.headers, identityHeaders(outcome.rule, outcome.identity));
      return "";
    case "bypass":
      return "";
    case "no_rule":
      return text(reply, 403, "No forward auth rule covers this address.\n");
    case "deny":
      return text(reply, 403, "You are signed in, but this app is not open to you.\n");
    case "sign_in":
    case "mfa":
      reply.headers.location = signInAddress(issuer, url, outcome.kind === "mfa");
      // nginx acts on no redirect of a subrequest: its `error_page 401` sends the browser to this Location.
      if (flavour === "auth-request") return text(reply, 401, "Sign in to use this app.\n");
      reply.status = 302;
      return "";
    case "invalid_token":
      reply.headers["www-authenticate"] = outcome.scheme === "Basic" ? 'Basic realm="Cairn"' : 'Bearer realm="Cairn", error="invalid_token"';
      return text(reply, 401, "The personal access token is not valid.\n");
  }
}
