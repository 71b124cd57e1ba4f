import type { SessionPrincipal } from "../../access/principal.ts";
import type { AppContext } from "../../context/context.ts";
import { hasPasskeys } from "../../identity/passkeys/passkeys.service.ts";
import { totpEnabled } from "../../identity/totp/totp.service.ts";
import { currentRules } from "../rules/rules.cache.ts";
import { isRuleTarget, matchRequest } from "../rules/rules.match.ts";
import { mintAuthzSession } from "../sessions/authz-sessions.service.ts";
import { cookieSession } from "./callers.ts";
import { signInAddress } from "./check.answers.ts";
import { notProtectedApp } from "./check.errors.ts";
import { requestAt } from "./forwarded-request.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "config" | "identity" | "forwardAuth" | "forwardAuthCheck">;

/** Where the browser goes next, with a new forward auth cookie (its value and life) when one was made. */
export type ContinueStep = { kind: "redirect"; location: string; mint?: { token: string; maxAgeSeconds: number } } | { kind: "no_second_factor" };

/**
 * `GET /api/authz/continue?url=` (issue 45): from Cairn's sign-in back to a protected app. Only to
 * a host a rule names (no open redirect); through sign-in when signed out, through a sign-in with
 * a second factor when the app's rule asks for one; then with the domain cookie, made for this
 * session unless the browser already holds one of it.
 */
export async function continueToApp(
  ctx: Ctx,
  url: string,
  signedIn: Pick<SessionPrincipal, "user" | "session"> | null,
  heldCookie: string | null,
): Promise<ContinueStep> {
  const rules = await currentRules(ctx);
  if (!isRuleTarget(rules, url)) throw notProtectedApp();
  if (signedIn === null) return { kind: "redirect", location: signInAddress("", url, false) };
  const match = matchRequest(rules, requestAt(url, "GET", "url"));
  if (match.kind === "rule" && match.rule.requireMfa && signedIn.session.acr !== "mfa") {
    // Signing in again could never bring a factor the account does not have: say so rather than loop.
    if (!(await totpEnabled(ctx, signedIn.user.id)) && !(await hasPasskeys(ctx, signedIn.user.id))) return { kind: "no_second_factor" };
    return { kind: "redirect", location: signInAddress("", url, true) };
  }
  if (heldCookie !== null && (await cookieSession(ctx, heldCookie))?.sessionId === signedIn.session.id) return { kind: "redirect", location: url };
  return { kind: "redirect", location: url, mint: await mintAuthzSession(ctx, signedIn.session) };
}
