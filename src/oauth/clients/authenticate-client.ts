import type { AppContext } from "../../context/context.ts";
import { constantTimeEqual, sha256Hex } from "../../shared/crypto.ts";
import { invalidClient, invalidRequest } from "../protocol/oauth.errors.ts";
import { MALFORMED_BASIC, type PresentedCredentials, presentedCredentials } from "../protocol/client-credentials.ts";
import { assertionIssuer, verifyClientAssertion } from "./client-assertion.ts";
import type { ClientRow } from "./clients.table.ts";
import { findClient } from "./clients.service.ts";

/** Spec 1 section 5 rule 1: Basic and the `client_secret` form parameter are two ways to send one secret. */
const methodFamily = (method: string) => (method === "client_secret_basic" || method === "client_secret_post" ? "secret" : method);

type Ctx = Pick<AppContext, "db" | "clock" | "config" | "outbound" | "log" | "oauth">;

/**
 * Authenticates the client of a token-family request by the kind of method it registered: a secret
 * (Basic or form, either way), a private_key_jwt assertion, or none for a public client.
 */
export async function authenticateClient(ctx: Ctx, authorization: string | null, form: URLSearchParams): Promise<ClientRow> {
  const presented = presentedOnce(authorization, form);
  if (presented.method !== "private_key_jwt") return bySecretOrNone(ctx, presented);
  const clientId = presented.clientId ?? assertionIssuer(presented.assertion);
  if (presented.clientId !== null && assertionIssuer(presented.assertion) !== presented.clientId)
    throw invalidClient("client_id differs from the assertion's issuer");
  const client = clientId ? await findClient(ctx, clientId) : null;
  if (client?.tokenEndpointAuthMethod !== "private_key_jwt") throw invalidClient("Client authentication failed.");
  await verifyClientAssertion(ctx, client, presented.assertion);
  return client;
}

type Presented = Exclude<PresentedCredentials, { method: "missing" }>;

/** The one method the request presents; invalid_client (or invalid_request) when it presents none, several or a malformed one. */
function presentedOnce(authorization: string | null, form: URLSearchParams): Presented {
  const presented = presentedCredentials(authorization, form);
  // RFC 6749 section 5.2: a client that tried the Authorization header and failed is invalid_client.
  if (typeof presented === "string") throw presented === MALFORMED_BASIC ? invalidClient(presented) : invalidRequest(presented);
  // RFC 6749 section 5.2: no client authentication included at all is invalid_client.
  if (presented.method === "missing") throw invalidClient("Client authentication failed: no client credentials were sent.");
  return presented;
}

async function bySecretOrNone(ctx: Ctx, presented: Exclude<Presented, { method: "private_key_jwt" }>): Promise<ClientRow> {
  const client = await findClient(ctx, presented.clientId);
  if (!client) throw invalidClient("Client authentication failed.");
  if (methodFamily(client.tokenEndpointAuthMethod) !== methodFamily(presented.method))
    throw invalidClient(`the client registered ${client.tokenEndpointAuthMethod} and presented ${presented.method}`);
  if (presented.method !== "none") {
    // Compare digests: equal length always, and nothing about the secret leaks through timing.
    if (!client.secretHash || !constantTimeEqual(sha256Hex(presented.secret), client.secretHash)) throw invalidClient("Client authentication failed.");
  }
  return client;
}
