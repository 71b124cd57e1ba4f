import { and, eq, isNull } from "drizzle-orm";
import type { AppContext } from "../../context/context.ts";
import { randomToken } from "../../shared/crypto.ts";
import type { ClientRow } from "../clients/clients.table.ts";
import { AuthorizeError, validateAuthorizeRequest } from "../endpoints/authorize-request.ts";
import { assertKeptSize, assertStartRequestSize } from "../protocol/kept-size.ts";
import { pushedRequestError } from "../protocol/oauth.errors.ts";
import { pushedRequests } from "./pushed-requests.table.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "config">;

/** RFC 9126 section 2.2: the `request_uri` prefix, and how long a pushed request waits (spec 8: 90 s). */
export const REQUEST_URI_PREFIX = "urn:ietf:params:oauth:request_uri:";
export const PAR_TTL_S = 90;

/** Parameters of client authentication: part of the push, never of the stored request. */
const CLIENT_AUTH = new Set(["client_secret", "client_assertion", "client_assertion_type"]);

/**
 * RFC 9126 section 2: stores an authenticated client's authorization request after the same
 * validation as the authorization endpoint; its errors come back as JSON (400), never redirects.
 */
export async function pushRequest(ctx: Ctx, client: ClientRow, form: URLSearchParams): Promise<{ request_uri: string; expires_in: number }> {
  assertStartRequestSize(form);
  // Section 2.1: a pushed request cannot itself point at another.
  if (form.has("request_uri")) throw pushedRequestError("invalid_request", "request_uri cannot be pushed");
  const params = new URLSearchParams([...form].filter(([key]) => !CLIENT_AUTH.has(key)));
  if (params.has("client_id") && params.get("client_id") !== client.clientId)
    throw pushedRequestError("invalid_request", "client_id differs from the authenticated client");
  params.set("client_id", client.clientId);
  try {
    validateAuthorizeRequest(params, client);
  } catch (e) {
    if (e instanceof AuthorizeError) throw pushedRequestError(e.error, e.description);
    throw e;
  }
  // Validation bounds state, nonce and redirect_uri; this bounds the row, other parameters included.
  const kept = [...params];
  assertKeptSize(JSON.stringify(kept));
  const id = randomToken(24);
  await ctx.db
    .insert(pushedRequests)
    .values({ id, clientId: client.clientId, params: kept, expiresAt: ctx.clock.now() + PAR_TTL_S * 1000, consumedAt: null })
    .run();
  return { request_uri: `${REQUEST_URI_PREFIX}${id}`, expires_in: PAR_TTL_S };
}

/**
 * The parameters an authorization request stands for (RFC 9126 section 4): with `request_uri`,
 * the pushed ones, taken once by a conditional update and only by the client that pushed them
 * (other parameters sent along are ignored); without, the request's own, unless the client or
 * the server requires pushing.
 */
export async function authorizationParams(ctx: Ctx, params: URLSearchParams, client: ClientRow | null): Promise<URLSearchParams> {
  const requestUri = params.get("request_uri");
  // Any other request_uri (a request object by reference) is not supported: validation says so.
  if (requestUri === null || !requestUri.startsWith(REQUEST_URI_PREFIX)) {
    if (client && (client.requirePushedAuthorizationRequests || ctx.config.requirePar))
      throw new AuthorizeError("invalid_request", "this client must push its authorization requests (PAR) first", false);
    return params;
  }
  const id = requestUri.slice(REQUEST_URI_PREFIX.length);
  if (!client) throw new AuthorizeError("invalid_client", "unknown client_id", false);
  const taken = id
    ? await ctx.db
        .update(pushedRequests)
        .set({ consumedAt: ctx.clock.now() })
        .where(and(eq(pushedRequests.id, id), eq(pushedRequests.clientId, client.clientId), isNull(pushedRequests.consumedAt)))
        .returning()
        .all()
    : [];
  // The conditional update is the one use: of concurrent requests only one gets the row back.
  const row = taken[0];
  if (!row || row.expiresAt <= ctx.clock.now())
    throw new AuthorizeError("invalid_request_uri", "the request_uri is unknown, used, expired or was pushed by another client", false);
  return new URLSearchParams(row.params);
}
