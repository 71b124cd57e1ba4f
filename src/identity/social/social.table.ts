import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { users } from "../users/users.table.ts";

/**
 * An upstream identity provider people may sign in with (spec 1 section 2.3 `social:*`): any
 * OpenID Connect provider by its issuer, or GitHub (or a GitHub Enterprise server) over OAuth.
 */
export const identityProviders = sqliteTable("identity_providers", {
  id: text("id").primaryKey(),
  /** Immutable: it names the provider in the callback URL registered upstream and in `social_accounts`. */
  slug: text("slug").notNull().unique(),
  kind: text("kind", { enum: ["oidc", "github"] }).notNull(),
  /** The button's label: "Sign in with <name>". */
  name: text("name").notNull(),
  /** OpenID Connect: the issuer, whose discovery document says the rest. */
  issuer: text("issuer").notNull().default(""),
  /** GitHub: the web origin (authorize, token) and the REST API base. */
  webUrl: text("web_url").notNull().default(""),
  apiUrl: text("api_url").notNull().default(""),
  clientId: text("client_id").notNull(),
  clientSecretSealed: text("client_secret_sealed"),
  scopes: text("scopes").notNull(),
  enabled: integer("enabled", { mode: "boolean" }).notNull().default(true),
  /** Take the provider's `email_verified` as this site's: off unless the admin trusts it. */
  trustEmail: integer("trust_email", { mode: "boolean" }).notNull().default(false),
  createdAt: integer("created_at").notNull(),
  updatedAt: integer("updated_at").notNull(),
});

/** A person's account at an upstream provider, linked to their Cairn account. */
export const socialAccounts = sqliteTable(
  "social_accounts",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    providerId: text("provider_id")
      .notNull()
      .references(() => identityProviders.id, { onDelete: "cascade" }),
    /** The provider's stable id (`sub`, GitHub's numeric id): never the email or the login, which change. */
    providerUserId: text("provider_user_id").notNull(),
    /** What the person is called there, for the account page. */
    login: text("login").notNull().default(""),
    email: text("email").notNull().default(""),
    createdAt: integer("created_at").notNull(),
    lastUsedAt: integer("last_used_at"),
  },
  (t) => [
    uniqueIndex("social_accounts_provider_user_idx").on(t.providerId, t.providerUserId),
    uniqueIndex("social_accounts_user_provider_idx").on(t.userId, t.providerId),
  ],
);

/** A sign-in (or link) started at an upstream provider: one use, bound to the browser that started it. */
export const socialLoginStates = sqliteTable(
  "social_login_states",
  {
    /** SHA-256 of the `state` sent upstream. */
    stateHash: text("state_hash").primaryKey(),
    providerId: text("provider_id")
      .notNull()
      .references(() => identityProviders.id, { onDelete: "cascade" }),
    /** SHA-256 of the short-lived cookie given to the browser that started it (no login CSRF). */
    browserHash: text("browser_hash").notNull(),
    nonce: text("nonce").notNull(),
    codeVerifier: text("code_verifier").notNull(),
    returnTo: text("return_to").notNull(),
    /** Set when a signed-in person links a provider from the account page. */
    linkUserId: text("link_user_id").references(() => users.id, { onDelete: "cascade" }),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
    consumedAt: integer("consumed_at"),
  },
  (t) => [index("social_login_states_expires_idx").on(t.expiresAt)],
);

export type IdentityProviderRow = typeof identityProviders.$inferSelect;
export type SocialAccountRow = typeof socialAccounts.$inferSelect;
