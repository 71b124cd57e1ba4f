import { gateRedirectUri } from "../protocol/redirect-uri.ts";
import { decodeJwt, decodeProtectedHeader, jwtVerify } from "jose";
import type { AppContext } from "../../context/context.ts";
import { ID_TOKEN_ALGS } from "../../keys/jwt-signer.ts";
import { verificationKey } from "../../keys/keystore.ts";
import { invalidRequest } from "../protocol/oauth.errors.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "config" | "keys" | "oauth">;

/** Who an ID token hint names: the user, the sign-in and the client it was issued to. */
export type HintClaims = { sub: string; sid: string | null; clientId: string };

/** Where the browser goes once signed out, and whether the RP proved who it is with a hint. */
export type LogoutPlan = { clientId: string | null; redirectTo: string | null; hint: HintClaims | null };

/** The SPA's page that confirms a sign-out, and says when one is done. */
export const LOGOUT_PAGE = "/logout";

/**
 * An ID token this server issued (OIDC RP-Initiated Logout 1.0 section 2): signature by one of our
 * keys and issuer checked; an expired one is still a valid hint (it only says who the RP means).
 * Null when it is not one of ours.
 */
async function verifyHint(ctx: Ctx, token: string): Promise<HintClaims | null> {
  let kid: string | undefined;
  try {
    kid = decodeProtectedHeader(token).kid;
  } catch {
    return null;
  }
  // Outside the catch: a database that cannot answer is a 503 (issue 46), not a hint that is not ours.
  const key = kid ? await verificationKey(ctx, kid) : null;
  if (!key) return null;
  try {
    const iat = decodeJwt(token).iat;
    if (typeof iat !== "number" || iat * 1000 > ctx.clock.now() + 60_000) return null;
    // Verified as of its own issue time, so that expiry does not matter and nothing else is skipped.
    const { payload } = await jwtVerify(token, key, { issuer: ctx.config.issuer, algorithms: [...ID_TOKEN_ALGS], currentDate: new Date(iat * 1000) });
    const aud = Array.isArray(payload.aud) ? payload.aud[0] : payload.aud;
    if (typeof payload.sub !== "string" || typeof aud !== "string") return null;
    return { sub: payload.sub, sid: typeof payload.sid === "string" ? payload.sid : null, clientId: aud };
  } catch {
    return null;
  }
}

/**
 * OIDC RP-Initiated Logout 1.0 section 2-3: the client (from the hint or `client_id`, which must
 * agree), and the `post_logout_redirect_uri` only when registered for that client, with `state`
 * added. A redirect URI without a known client, or not registered, is refused outright.
 */
export async function planLogout(
  ctx: Ctx,
  params: { id_token_hint?: string; client_id?: string; post_logout_redirect_uri?: string; state?: string },
): Promise<LogoutPlan> {
  const hint = params.id_token_hint ? await verifyHint(ctx, params.id_token_hint) : null;
  if (hint && params.client_id && params.client_id !== hint.clientId) throw invalidRequest("client_id differs from the id_token_hint's audience");
  const clientId = hint?.clientId ?? params.client_id ?? null;
  let redirectTo: string | null = null;
  if (params.post_logout_redirect_uri) {
    const client = clientId ? await ctx.oauth.clients.find(clientId) : null;
    if (!client) throw invalidRequest("post_logout_redirect_uri needs the client: send id_token_hint or client_id");
    // Registration keeps URIs in URL-normalized form (`https://app.example.com` as `…com/`, RFC 3986
    // section 6.2.2): the parameter is compared in that same form, so an app sending exactly what it
    // registered is not refused.
    const normalized = gateRedirectUri(params.post_logout_redirect_uri);
    if (normalized === null || !client.postLogoutRedirectUris.includes(normalized))
      throw invalidRequest("post_logout_redirect_uri is not registered for this client");
    const url = new URL(normalized);
    if (params.state) url.searchParams.set("state", params.state);
    redirectTo = url.href;
  }
  return { clientId, redirectTo, hint };
}

/** The confirmation page's address, carrying what the RP asked for (never the hint itself). */
export function confirmationPath(params: { client_id?: string | null; post_logout_redirect_uri?: string; state?: string }): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value) query.set(key, value);
  const text = query.toString();
  return text ? `${LOGOUT_PAGE}?${text}` : LOGOUT_PAGE;
}
