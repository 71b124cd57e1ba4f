import { type Static, Type } from "@sinclair/typebox";
import { oneOf, orNull } from "./common.ts";
import { ProviderKind, SiteRole } from "./signin.ts";
import { CaptchaProvider } from "./two-factor.ts";

/**
 * Site administration (`/api/oauth/admin`) and the site API's user list (`/api/oauth/site/users`):
 * accounts, invitations, instance settings, the audit log and upstream identity providers.
 * Times are milliseconds.
 */

export const AdminUser = Type.Object({
  id: Type.String(),
  username: Type.String(),
  email: Type.String(),
  name: Type.String(),
  role: SiteRole,
  /** Whether the address is proven: by the mailed link, an invitation mailed to it, a trusted upstream provider or an administrator. */
  email_verified: Type.Boolean(),
  disabled: Type.Boolean(),
  created_at: Type.Number(),
});
export type AdminUser = Static<typeof AdminUser>;
/**
 * A page of users, and how many match: with a search, counted up to 1,000, and `total_capped`
 * when more do (`total` is then 1000, a lower bound).
 */
export const UserPage = Type.Object({ users: Type.Array(AdminUser), total: Type.Number(), total_capped: Type.Boolean() });
export type UserPage = Static<typeof UserPage>;
export const AdminUserAnswer = Type.Object({ user: AdminUser });
export type AdminUserAnswer = Static<typeof AdminUserAnswer>;

export const Invite = Type.Object({
  id: Type.String(),
  /** The one address it may register, or null for anyone holding the code. */
  email: orNull(Type.String()),
  created_at: Type.Number(),
  expires_at: Type.Number(),
  used_at: orNull(Type.Number()),
  used_by: orNull(Type.String()),
  /** When its link was mailed to `email` (issue 44), or null when it was only shown to copy. */
  mailed_at: orNull(Type.Number()),
  status: oneOf(["pending", "used", "expired"]),
});
export type Invite = Static<typeof Invite>;
export const InviteList = Type.Object({ invites: Type.Array(Invite) });
export type InviteList = Static<typeof InviteList>;
/** `POST /api/oauth/admin/invites` (201): the code and its registration link, answered this once. */
export const CreatedInvite = Type.Object({ invite: Invite, code: Type.String(), url: Type.String() });
export type CreatedInvite = Static<typeof CreatedInvite>;

export const Registration = oneOf(["open", "invite", "closed"]);
export type Registration = Static<typeof Registration>;

/** Instance-wide settings (`GET`/`PATCH /api/oauth/admin/config`, answered as `{config}`). */
export const SiteConfig = Type.Object({
  registration: Registration,
  sudo_mode_ttl_minutes: Type.Number(),
  require_captcha_for_2fa: Type.Boolean(),
  captcha_provider: CaptchaProvider,
  /** The third-party provider's public site key, given to its widget. */
  captcha_site_key: Type.String(),
  /** Where the provider's answers are checked; empty means the provider's public endpoint. */
  captcha_verify_url: Type.String(),
  /** Leading zero bits the built-in proof of work asks for. */
  pow_difficulty: Type.Number(),
  admin_requires_mfa: Type.Boolean(),
  /** Whether the provider's secret is stored: the secret itself is never answered. */
  captcha_secret_set: Type.Boolean(),
});
export type SiteConfig = Static<typeof SiteConfig>;
export const SiteConfigAnswer = Type.Object({ config: SiteConfig });
export type SiteConfigAnswer = Static<typeof SiteConfigAnswer>;

/** Who did what; `details` differ by action. Kept when the actors are gone. */
export const AuditEntry = Type.Object({
  id: Type.Number(),
  at: Type.Number(),
  actor_user_id: orNull(Type.String()),
  action: Type.String(),
  team_id: orNull(Type.String()),
  target_user_id: orNull(Type.String()),
  details: Type.Record(Type.String(), Type.Unknown()),
});
export type AuditEntry = Static<typeof AuditEntry>;
/** Newest first (the site's, or one team's: `GET /api/oauth/me/teams/:teamId/audit`). */
export const AuditEntries = Type.Object({ entries: Type.Array(AuditEntry) });
export type AuditEntries = Static<typeof AuditEntries>;

/** An upstream provider as administrators see it: never its secret. */
export const IdentityProvider = Type.Object({
  id: Type.String(),
  slug: Type.String(),
  kind: ProviderKind,
  name: Type.String(),
  issuer: Type.String(),
  web_url: Type.String(),
  api_url: Type.String(),
  client_id: Type.String(),
  client_secret_set: Type.Boolean(),
  scopes: Type.String(),
  enabled: Type.Boolean(),
  trust_email: Type.Boolean(),
  /** The redirect URI to register at the provider. */
  callback_url: Type.String(),
  /** How many accounts sign in with it. */
  linked_accounts: Type.Number(),
  created_at: Type.Number(),
  updated_at: Type.Number(),
});
export type IdentityProvider = Static<typeof IdentityProvider>;
export const IdentityProviderList = Type.Object({ providers: Type.Array(IdentityProvider) });
export type IdentityProviderList = Static<typeof IdentityProviderList>;
export const IdentityProviderAnswer = Type.Object({ provider: IdentityProvider });
export type IdentityProviderAnswer = Static<typeof IdentityProviderAnswer>;
/** `DELETE /api/oauth/admin/identity-providers/:id`: how many accounts lost the link. */
export const DeletedIdentityProvider = Type.Object({ ok: Type.Literal(true), unlinked: Type.Number() });
export type DeletedIdentityProvider = Static<typeof DeletedIdentityProvider>;
