import { and, asc, eq, sql } from "drizzle-orm";
import type { AppContext } from "../../context/context.ts";
import { changedRows } from "../../db/changes.ts";
import type { Db } from "../../db/client.ts";
import { versionedCache } from "../../db/table-version.ts";
import { audit } from "../../identity/audit/audit.service.ts";
import { missing } from "../../identity/users/identity.errors.ts";
import { randomToken, sha256Hex } from "../../shared/crypto.ts";
import { type ClientInput, type ClientMetadata, type MetadataRules, resolveClientMetadata } from "./client-metadata.ts";
import { type ClientRow, oauthClients } from "./clients.table.ts";
import { onFirstUse } from "../../shared/on-first-use.ts";
import type { App, AuthMethod, IdTokenAlg } from "../../contract/api/apps.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "oauth">;
/**
 * Creating or changing a client checks its grant types against those served, and the URLs Cairn
 * will fetch against the outbound guard (strict when a caller has no policy to give).
 */
type WriteCtx = Ctx & Partial<Pick<AppContext, "outbound">>;

const rulesOf = (ctx: WriteCtx): MetadataRules => ({
  served: ctx.oauth.grantTypes,
  byDefault: ctx.oauth.defaultGrantTypes,
  outbound: { allowLoopback: ctx.outbound?.allowLoopback ?? false },
});

/** The client as its owner sees it; the secret is never in it. The row's method and algorithm were checked when written. */
export function clientView(c: ClientRow): App {
  return {
    client_id: c.clientId,
    name: c.name,
    description: c.description,
    public: c.isPublic,
    redirect_uris: c.redirectUris,
    post_logout_redirect_uris: c.postLogoutRedirectUris,
    grant_types: c.grantTypes,
    token_endpoint_auth_method: c.tokenEndpointAuthMethod as AuthMethod,
    jwks: c.jwks,
    jwks_uri: c.jwksUri,
    id_token_signed_response_alg: c.idTokenSignedResponseAlg as IdTokenAlg,
    backchannel_logout_uri: c.backchannelLogoutUri,
    oidc_fields: c.oidcFields,
    scopes: c.scopes,
    dpop_bound_access_tokens: c.dpopBoundAccessTokens,
    require_pushed_authorization_requests: c.requirePushedAuthorizationRequests,
    client_credentials_scopes: c.clientCredentialsScopes,
    is_verified: c.isVerified,
    integration: c.integration,
    created_at: c.createdAt,
  };
}

const metadataOf = (c: ClientRow): ClientMetadata => ({
  name: c.name,
  description: c.description,
  redirectUris: c.redirectUris,
  isPublic: c.isPublic,
  tokenEndpointAuthMethod: c.tokenEndpointAuthMethod,
  grantTypes: c.grantTypes,
  jwks: c.jwks,
  jwksUri: c.jwksUri,
  idTokenSignedResponseAlg: c.idTokenSignedResponseAlg,
  postLogoutRedirectUris: c.postLogoutRedirectUris,
  backchannelLogoutUri: c.backchannelLogoutUri,
  oidcFields: c.oidcFields,
  scopes: c.scopes,
  dpopBoundAccessTokens: c.dpopBoundAccessTokens,
  requirePushedAuthorizationRequests: c.requirePushedAuthorizationRequests,
  clientCredentialsScopes: c.clientCredentialsScopes,
});

/** A client secret: 256 random bits, stored as its SHA-256. */
const newSecret = () => randomToken(32);
/** Only the secret methods have a secret: public and private_key_jwt clients never do. */
const usesSecret = (method: string) => method === "client_secret_basic" || method === "client_secret_post";

/**
 * How a client starts: `verified` when a site admin registers it from the dashboard or catalog
 * (clients.policy.ts), `firstParty` only for the app the instance registers for itself.
 */
export type ClientOrigin = { registrationTokenHash?: string; integration?: string; verified?: boolean; firstParty?: boolean };

/** Registers a client for `ownerUserId`; confidential ones get a secret, answered this once. */
export async function createClient(ctx: WriteCtx, ownerUserId: string | null, input: ClientInput, extra: ClientOrigin = {}) {
  const meta = resolveClientMetadata(input, rulesOf(ctx));
  const now = ctx.clock.now();
  const secret = usesSecret(meta.tokenEndpointAuthMethod) ? newSecret() : null;
  const row: ClientRow = {
    clientId: randomToken(18),
    ownerUserId,
    ...meta,
    secretHash: secret && sha256Hex(secret),
    isVerified: extra.verified ?? false,
    firstParty: extra.firstParty ?? false,
    registrationTokenHash: extra.registrationTokenHash ?? null,
    integration: extra.integration ?? null,
    createdAt: now,
    updatedAt: now,
  };
  await ctx.db.insert(oauthClients).values(row).run();
  await audit(ctx, { actorUserId: ownerUserId, action: "client.created", details: { client_id: row.clientId, name: row.name } });
  return { client: row, secret };
}

/** Clients kept in memory: a few per instance, each looked up by every token-family request. */
const CACHED_CLIENTS = 1_000;

/**
 * The client lookup every token-family request makes: prepared once per app, and the rows kept in
 * memory until the clients table changes (by anyone, any process), so a change is seen at once.
 * The rows are shared: nobody may modify one.
 */
export function createClientsRepo(db: Db) {
  const byId = onFirstUse(() =>
    db
      .select()
      .from(oauthClients)
      .where(eq(oauthClients.clientId, sql.placeholder("clientId")))
      .prepare(),
  );
  const cached = versionedCache<ClientRow | null>(db, "oauth_clients", CACHED_CLIENTS);
  return { find: async (clientId: string): Promise<ClientRow | null> => cached(clientId, async () => (await byId().get({ clientId })) ?? null) };
}

export type ClientsRepo = ReturnType<typeof createClientsRepo>;

export function findClient(ctx: Pick<AppContext, "oauth">, clientId: string): Promise<ClientRow | null> {
  return ctx.oauth.clients.find(clientId);
}

/** The owner's client, or 404 (the same answer for a missing and a foreign one). */
export async function ownedClient(ctx: Pick<Ctx, "db">, ownerUserId: string, clientId: string): Promise<ClientRow> {
  const row = await ctx.db
    .select()
    .from(oauthClients)
    .where(and(eq(oauthClients.clientId, clientId), eq(oauthClients.ownerUserId, ownerUserId)))
    .get();
  if (!row) throw missing("App");
  return row;
}

export function listOwnedClients(ctx: Pick<Ctx, "db">, ownerUserId: string): Promise<ClientRow[]> {
  return ctx.db.select().from(oauthClients).where(eq(oauthClients.ownerUserId, ownerUserId)).orderBy(asc(oauthClients.name)).all();
}

export async function updateClient(ctx: WriteCtx, client: ClientRow, input: ClientInput): Promise<ClientRow> {
  const meta = resolveClientMetadata(input, rulesOf(ctx), metadataOf(client));
  // A client that leaves the secret methods loses its secret; one that joins them gets one by rotation.
  const secretHash = usesSecret(meta.tokenEndpointAuthMethod) ? client.secretHash : null;
  const next: ClientRow = { ...client, ...meta, secretHash, updatedAt: ctx.clock.now() };
  await ctx.db.update(oauthClients).set(next).where(eq(oauthClients.clientId, client.clientId)).run();
  return next;
}

/**
 * RFC 7592 section 2.2: the request replaces the metadata (omitted fields take their defaults).
 * A client that moves to a secret method without having a secret gets one, answered once.
 */
export async function replaceClientMetadata(ctx: WriteCtx, client: ClientRow, input: ClientInput): Promise<{ client: ClientRow; secret: string | null }> {
  const meta = resolveClientMetadata({ description: client.description, ...input }, rulesOf(ctx));
  const secret = usesSecret(meta.tokenEndpointAuthMethod) && !client.secretHash ? newSecret() : null;
  const secretHash = usesSecret(meta.tokenEndpointAuthMethod) ? (secret ? sha256Hex(secret) : client.secretHash) : null;
  const next: ClientRow = { ...client, ...meta, secretHash, updatedAt: ctx.clock.now() };
  await ctx.db.update(oauthClients).set(next).where(eq(oauthClients.clientId, client.clientId)).run();
  return { client: next, secret };
}

/** A new registration access token (RFC 7592 section 3: answered with every read and update). */
export async function rotateRegistrationToken(ctx: Ctx, client: ClientRow): Promise<string> {
  const token = randomToken(32);
  await ctx.db
    .update(oauthClients)
    .set({ registrationTokenHash: sha256Hex(token) })
    .where(eq(oauthClients.clientId, client.clientId))
    .run();
  return token;
}

/** A new secret, answered once; the old one stops working at once. */
export async function rotateClientSecret(ctx: Ctx, client: ClientRow): Promise<string> {
  if (!usesSecret(client.tokenEndpointAuthMethod)) throw missing("Secret of an app that authenticates with a secret");
  const secret = newSecret();
  await ctx.db
    .update(oauthClients)
    .set({ secretHash: sha256Hex(secret), updatedAt: ctx.clock.now() })
    .where(eq(oauthClients.clientId, client.clientId))
    .run();
  await audit(ctx, { actorUserId: client.ownerUserId, action: "client.secret_rotated", details: { client_id: client.clientId } });
  return secret;
}

export async function deleteClient(ctx: Ctx, client: ClientRow): Promise<void> {
  if (changedRows(await ctx.db.delete(oauthClients).where(eq(oauthClients.clientId, client.clientId)).run()) !== 1) throw missing("App");
  await audit(ctx, { actorUserId: client.ownerUserId, action: "client.deleted", details: { client_id: client.clientId } });
}

/** Spec 2.2 rule 2: a client with no redirect URI is locked to the first one used. */
export async function lockRedirectUri(ctx: Ctx, client: ClientRow, uri: string): Promise<void> {
  await ctx.db
    .update(oauthClients)
    .set({ redirectUris: [{ uri, match: "equals" }], updatedAt: ctx.clock.now() })
    .where(and(eq(oauthClients.clientId, client.clientId), eq(oauthClients.redirectUris, [])))
    .run();
}
