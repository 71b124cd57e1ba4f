import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "../../identity/users/users.table.ts";
import type { RedirectEntry } from "../protocol/redirect-uri.ts";

/** Registered applications (spec 1 section 2.1). */
export const oauthClients = sqliteTable(
  "oauth_clients",
  {
    clientId: text("client_id").primaryKey(),
    ownerUserId: text("owner_user_id").references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    /** SHA-256 of the secret; null for public clients. */
    secretHash: text("secret_hash"),
    isPublic: integer("is_public", { mode: "boolean" }).notNull(),
    redirectUris: text("redirect_uris", { mode: "json" }).$type<RedirectEntry[]>().notNull(),
    postLogoutRedirectUris: text("post_logout_redirect_uris", { mode: "json" }).$type<string[]>().notNull(),
    grantTypes: text("grant_types", { mode: "json" }).$type<string[]>().notNull(),
    tokenEndpointAuthMethod: text("token_endpoint_auth_method").notNull(),
    jwks: text("jwks", { mode: "json" }).$type<{ keys: Record<string, unknown>[] }>(),
    jwksUri: text("jwks_uri"),
    idTokenSignedResponseAlg: text("id_token_signed_response_alg").notNull(),
    backchannelLogoutUri: text("backchannel_logout_uri"),
    oidcFields: text("oidc_fields", { mode: "json" }).$type<string[]>().notNull(),
    /** Scopes the client may request; others are dropped from requests. */
    scopes: text("scopes", { mode: "json" }).$type<string[]>().notNull(),
    /** RFC 9449 section 5.2: token requests must carry a DPoP proof. */
    dpopBoundAccessTokens: integer("dpop_bound_access_tokens", { mode: "boolean" }).notNull().default(false),
    /** RFC 9126 section 6: authorization requests only by `request_uri` after a push. */
    requirePushedAuthorizationRequests: integer("require_pushed_authorization_requests", { mode: "boolean" }).notNull().default(false),
    /** RFC 6749 section 4.4: the scopes the owner allows the app for machine access (its own APIs' scopes). */
    clientCredentialsScopes: text("client_credentials_scopes", { mode: "json" }).$type<string[]>().notNull().default([]),
    isVerified: integer("is_verified", { mode: "boolean" }).notNull().default(false),
    /** Registered by the instance itself (the built-in workspace app): its consent is implied, not asked. */
    firstParty: integer("first_party", { mode: "boolean" }).notNull().default(false),
    /** The catalog entry the app was registered from (its setup snippet), or null. */
    integration: text("integration"),
    /** RFC 7592: SHA-256 of the registration access token, for clients made by dynamic registration. */
    registrationTokenHash: text("registration_token_hash"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [index("oauth_clients_owner_idx").on(t.ownerUserId)],
);

export type ClientRow = typeof oauthClients.$inferSelect;
