import { type Static, Type } from "@sinclair/typebox";
import { orNull } from "./common.ts";
import { ProviderButton, User } from "./signin.ts";

/**
 * The signed-in user's own account (`/api/oauth/me`): profile, password, sessions, second factors,
 * personal access tokens, custom domains, GPG keys and linked accounts. Times are milliseconds.
 */

/**
 * `GET`/`PATCH /api/oauth/me`: a session sees the whole user; an app's token sees the email only
 * with the `email` scope (spec 1 section 2.3). The whole user is named first, so nothing of it is dropped.
 */
export const ProfileAnswer = Type.Object({ user: Type.Union([User, Type.Omit(User, ["email", "email_verified"])]) });
export type ProfileAnswer = Static<typeof ProfileAnswer>;

/** `POST /api/oauth/me/password`: what else ended with the old password. */
export const PasswordChanged = Type.Object({ ok: Type.Literal(true), other_sessions_ended: Type.Number(), app_tokens_revoked: Type.Boolean() });
export type PasswordChanged = Static<typeof PasswordChanged>;

/** A signed-in device. */
export const DeviceSession = Type.Object({
  sid: Type.String(),
  /** The session asking. */
  current: Type.Boolean(),
  /** The browser and system read from the user agent, for people. */
  device: Type.String(),
  user_agent: Type.String(),
  ip: Type.String(),
  created_at: Type.Number(),
  last_seen_at: Type.Number(),
  expires_at: Type.Number(),
  amr: Type.Array(Type.String()),
});
export type DeviceSession = Static<typeof DeviceSession>;
export const DeviceSessionList = Type.Object({ sessions: Type.Array(DeviceSession) });
export type DeviceSessionList = Static<typeof DeviceSessionList>;
/** `DELETE /api/oauth/me/sessions`: every other session ended. */
export const EndedSessions = Type.Object({ revoked: Type.Number() });
export type EndedSessions = Static<typeof EndedSessions>;

export const TotpStatus = Type.Object({ enabled: Type.Boolean(), backup_codes_left: Type.Number() });
export type TotpStatus = Static<typeof TotpStatus>;
/** `POST /api/oauth/me/totp`: not active until confirmed with a code. */
export const TotpEnrolment = Type.Object({ secret: Type.String(), otpauth_uri: Type.String() });
export type TotpEnrolment = Static<typeof TotpEnrolment>;
/** Shown once: at confirmation, and when made anew. */
export const BackupCodes = Type.Object({ backup_codes: Type.Array(Type.String()) });
export type BackupCodes = Static<typeof BackupCodes>;

export const Passkey = Type.Object({
  id: Type.String(),
  name: Type.String(),
  created_at: Type.Number(),
  last_used_at: orNull(Type.Number()),
  /** WebAuthn's `singleDevice` or `multiDevice` (synced). */
  device_type: Type.String(),
  backed_up: Type.Boolean(),
});
export type Passkey = Static<typeof Passkey>;
export const PasskeyList = Type.Object({ passkeys: Type.Array(Passkey) });
export type PasskeyList = Static<typeof PasskeyList>;
export const AddedPasskey = Type.Object({ passkey: Passkey });
export type AddedPasskey = Static<typeof AddedPasskey>;

/**
 * WebAuthn creation options (PublicKeyCredentialCreationOptionsJSON) as the server's WebAuthn library
 * makes them: the members a browser needs are named; every other member is kept as made.
 */
const PasskeyCreationOptions = Type.Object(
  {
    challenge: Type.String(),
    rp: Type.Object({ id: Type.Optional(Type.String()), name: Type.String() }),
    user: Type.Object({ id: Type.String(), name: Type.String(), displayName: Type.String() }),
    pubKeyCredParams: Type.Array(Type.Object({ alg: Type.Number(), type: Type.Literal("public-key") })),
  },
  { additionalProperties: Type.Unknown() },
);
/** `POST /api/oauth/me/passkeys/options`: a passkey to ask the browser to make, and the id to answer it with. */
export const PasskeyCreationChallenge = Type.Object({ challenge_id: Type.String(), options: PasskeyCreationOptions });
export type PasskeyCreationChallenge = Static<typeof PasskeyCreationChallenge>;

/** A personal access token; its secret is never in it. */
export const AccessToken = Type.Object({
  id: Type.String(),
  name: Type.String(),
  /** The secret's first characters, to tell tokens apart. */
  prefix: Type.String(),
  scopes: Type.Array(Type.String()),
  created_at: Type.Number(),
  expires_at: orNull(Type.Number()),
  last_used_at: orNull(Type.Number()),
});
export type AccessToken = Static<typeof AccessToken>;
export const AccessTokenList = Type.Object({ tokens: Type.Array(AccessToken) });
export type AccessTokenList = Static<typeof AccessTokenList>;
/** `POST /api/oauth/me/tokens` (201): the secret, answered this once. */
export const CreatedAccessToken = Type.Object({ token: AccessToken, secret: Type.String() });
export type CreatedAccessToken = Static<typeof CreatedAccessToken>;

/** A custom domain, proven by a DNS TXT record. */
export const Domain = Type.Object({
  id: Type.String(),
  domain: Type.String(),
  verified: Type.Boolean(),
  verified_at: orNull(Type.Number()),
  last_checked_at: orNull(Type.Number()),
  /** The record to publish. */
  txt_record: Type.Object({ name: Type.String(), value: Type.String() }),
});
export type Domain = Static<typeof Domain>;
export const DomainList = Type.Object({ domains: Type.Array(Domain) });
export type DomainList = Static<typeof DomainList>;
export const DomainAnswer = Type.Object({ domain: Domain });
export type DomainAnswer = Static<typeof DomainAnswer>;

/** An OpenPGP public key; a user id is `verified` when it names the account's own verified email. */
export const GpgKey = Type.Object({
  id: Type.String(),
  fingerprint: Type.String(),
  key_id: Type.String(),
  algorithm: Type.String(),
  expires_at: orNull(Type.Number()),
  user_ids: Type.Array(Type.Object({ uid: Type.String(), name: Type.String(), email: Type.String(), verified: Type.Boolean() })),
  created_at: Type.Number(),
});
export type GpgKey = Static<typeof GpgKey>;
export const GpgKeyList = Type.Object({ gpg_keys: Type.Array(GpgKey) });
export type GpgKeyList = Static<typeof GpgKeyList>;
export const GpgKeyAnswer = Type.Object({ gpg_key: GpgKey });
export type GpgKeyAnswer = Static<typeof GpgKeyAnswer>;

/** An account at an upstream provider that signs in to this one. */
export const SocialAccount = Type.Object({
  id: Type.String(),
  /** The provider's slug. */
  provider: Type.String(),
  provider_name: Type.String(),
  provider_user_id: Type.String(),
  login: Type.String(),
  email: Type.String(),
  created_at: Type.Number(),
  last_used_at: orNull(Type.Number()),
});
export type SocialAccount = Static<typeof SocialAccount>;

/** `GET /api/oauth/me/social-accounts`: the links, whether a password is set, and what can be linked. */
export const LinkedAccounts = Type.Object({ social_accounts: Type.Array(SocialAccount), has_password: Type.Boolean(), providers: Type.Array(ProviderButton) });
export type LinkedAccounts = Static<typeof LinkedAccounts>;

/** `POST /api/oauth/me/social-accounts/link`: where the browser goes to sign in at the provider. */
export const LinkStarted = Type.Object({ redirect_to: Type.String() });
export type LinkStarted = Static<typeof LinkStarted>;
