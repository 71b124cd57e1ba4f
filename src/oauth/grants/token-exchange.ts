import { CROSS_APP_SCOPE, isAdminScope } from "../../contract/scopes.ts";
import { withTx } from "../../db/tx.ts";
import type { ClientRow } from "../clients/clients.table.ts";
import { invalidGrant, invalidRequest, invalidScope, invalidTarget, unauthorizedClient } from "../protocol/oauth.errors.ts";
import { requestedResources } from "../protocol/resource.ts";
import { parseScope } from "../protocol/scope.ts";
import { type ActiveAccessToken, createGrant, findActiveAccessToken } from "../tokens/tokens.service.ts";
import { MAX_EXCHANGE_DEPTH } from "../tokens/lifetimes.ts";
import { type Grant, type GrantContext, missingParam, type TokenRequest } from "./grant.ts";
import { storeTokens } from "./issue-tokens.ts";

/** RFC 8693 section 3: the one token type exchanged here, in and out. */
export const ACCESS_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:access_token";
export const TOKEN_EXCHANGE_GRANT = "urn:ietf:params:oauth:grant-type:token-exchange";

/** A cross-app scope's client id, or null. */
const crossAppClient = (scope: string) => CROSS_APP_SCOPE.exec(scope)?.[1] ?? null;

/** `team:<team id>:<permission>`, the form consent binds `team:<permission>` to (spec 1 section 2.3). */
const BOUND_TEAM_SCOPE = /^team:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}:(.+)$/i;

/** Whether the client is allowed `scope`: one of its registered scopes, or a team-bound form of one. */
function clientAllows(client: ClientRow, scope: string): boolean {
  if (client.scopes.includes(scope)) return true;
  const bound = BOUND_TEAM_SCOPE.exec(scope);
  return bound !== null && client.scopes.includes(`team:${bound[1]}`);
}

/**
 * The new token's scope: at most (the subject token's scope) ∩ (the calling client's allowed
 * scopes), less offline_access and cross-app scopes, and, as at authorization, less admin-only
 * scopes for a user who is not an admin (now). `scope` may narrow it; asking beyond it is refused.
 */
function exchangedScopes(subject: ActiveAccessToken, client: ClientRow, asked: string | null): string[] {
  const fromSubject = subject.scopes.filter((s) => crossAppClient(s) === null && s !== "offline_access");
  const forUser = (s: string) => subject.user.role === "admin" || !isAdminScope(s);
  const grantable = fromSubject.filter((s) => clientAllows(client, s) && forUser(s));
  if (asked === null) {
    if (grantable.length === 0) throw invalidScope("none of the subject token's scopes is allowed for this client");
    return grantable;
  }
  const scopes = parseScope(asked);
  if (scopes === null || scopes.length === 0) throw invalidScope("scope must be a non-empty subset of the subject token's scope");
  for (const s of scopes) {
    if (!fromSubject.includes(s)) throw invalidScope("scope must be a non-empty subset of the subject token's scope");
    if (!clientAllows(client, s)) throw invalidScope(`scope ${s} is not allowed for this client`);
    if (!forUser(s)) throw invalidScope(`scope ${s} is for administrators only`);
  }
  return scopes;
}

/**
 * RFC 8693 section 2.1 `resource` and `audience` (logical names, client ids say), together. The
 * subject token's audience, when it has one, is the upper bound: the new token's is that or a part
 * of it, and that whole when none is asked. A token for the client itself (no audience) may be
 * given any.
 */
function exchangedAudience(params: URLSearchParams, subjectAudience: readonly string[]): string[] {
  const resources = requestedResources(params);
  const names = params.getAll("audience").map((a) => a.trim());
  if (names.some((a) => a === "" || a.length > 256)) throw invalidTarget("audience must be 1 to 256 characters");
  const asked = [...new Set([...resources, ...names])];
  if (subjectAudience.length === 0) return asked;
  if (asked.length === 0) return [...subjectAudience];
  const outside = asked.find((a) => !subjectAudience.includes(a));
  if (outside !== undefined) throw invalidTarget(`${outside} is outside the subject token's audience`);
  return asked;
}

/**
 * RFC 8693 per spec 1 section 4.3: an authenticated confidential client exchanges an access token
 * issued to it, or one carrying the cross-app scope `app:<its client_id>:*`, for a new access
 * token for the same user (impersonation: no `act`), within the subject token's scope and
 * audience and its own allowed scopes, not refreshable, no ID token. The new grant records the
 * subject's grant as its lineage, so the new token ends with it (replay, revocation, consent
 * withdrawn).
 */
async function handle(ctx: GrantContext, request: TokenRequest) {
  const { client, params } = request;
  if (client.isPublic) throw unauthorizedClient("a public client cannot exchange tokens");
  const subjectToken = params.get("subject_token");
  if (!subjectToken) throw invalidRequest(missingParam("subject_token"));
  const subjectType = params.get("subject_token_type");
  if (!subjectType) throw invalidRequest(missingParam("subject_token_type"));
  if (subjectType !== ACCESS_TOKEN_TYPE) throw invalidRequest(`subject_token_type must be ${ACCESS_TOKEN_TYPE}`);
  // RFC 8693 section 2.1: delegation (an actor) is not offered; saying so beats ignoring it, which
  // would issue a token without the `act` the client asked for.
  if (params.has("actor_token") || params.has("actor_token_type"))
    throw invalidRequest("actor_token is not supported: only impersonation is offered, send subject_token alone");
  const requestedType = params.get("requested_token_type");
  if (requestedType !== null && requestedType !== ACCESS_TOKEN_TYPE) throw invalidRequest(`requested_token_type must be ${ACCESS_TOKEN_TYPE}`);

  const subject = await findActiveAccessToken(ctx, subjectToken);
  if (!subject) throw invalidGrant("the subject token is not an active access token");
  const mayExchange = subject.clientId === client.clientId || subject.scopes.some((s) => crossAppClient(s) === client.clientId);
  if (!mayExchange) throw invalidGrant("the subject token was not issued to this client and names no cross-app scope for it");
  // A sender-constrained token is only good with its key: handing it over must not launder it.
  if (subject.jkt !== null) throw invalidGrant("a DPoP-bound subject token cannot be exchanged");
  const { grant: from } = subject;
  if (from.lineage.length >= MAX_EXCHANGE_DEPTH) throw invalidGrant(`the subject token was already exchanged ${from.lineage.length} times in a row`);

  const scopes = exchangedScopes(subject, client, params.get("scope"));
  const audience = exchangedAudience(params, subject.audience);

  const response = await withTx(ctx.db, async () => {
    const grant = await createGrant(ctx, {
      clientId: client.clientId,
      userId: subject.user.id,
      scopes,
      sid: from.sid,
      authTime: from.authTime,
      amr: from.amr,
      acr: from.acr,
      // Not refreshable (spec 4.3): the new token lives no longer than an access token.
      refreshExpiresAt: null,
      dpopJkt: request.senderConstraint?.jkt ?? null,
      resources: audience,
      lineage: [from.id, ...from.lineage],
    });
    return await storeTokens(ctx, grant, scopes, request, audience);
  });
  return { ...response, issued_token_type: ACCESS_TOKEN_TYPE };
}

export const tokenExchange: Grant = {
  grantType: TOKEN_EXCHANGE_GRANT,
  byDefault: false,
  params: ["subject_token", "subject_token_type", "requested_token_type", "actor_token", "actor_token_type", "scope", "resource", "audience"],
  handle,
};
