import { type Static, Type } from "@sinclair/typebox";
import { oneOf } from "./common.ts";

/** The sign-in API (`/api/auth`, ARCHITECTURE section 4): accounts, sessions and the login page's buttons. */

export const SiteRole = oneOf(["admin", "user"]);
export type SiteRole = Static<typeof SiteRole>;

/** The public shape of a user; `picture` is "" for none. */
export const User = Type.Object({
  id: Type.String(),
  username: Type.String(),
  email: Type.String(),
  email_verified: Type.Boolean(),
  name: Type.String(),
  picture: Type.String(),
  role: SiteRole,
});
export type User = Static<typeof User>;

/** `POST /api/auth/register` (201), `/login`, `/login/mfa`, `/passkey/verify`: the session, also set as a cookie. */
export const SignedIn = Type.Object({ user: User, session_token: Type.String() });
export type SignedIn = Static<typeof SignedIn>;

export const SecondFactorMethod = oneOf(["totp", "passkey", "backup_code"]);
export type SecondFactorMethod = Static<typeof SecondFactorMethod>;

/** A correct password of an account with a second factor: the one-use ticket for `/login/mfa`. */
export const MfaRequired = Type.Object({ mfa_required: Type.Literal(true), mfa_token: Type.String(), methods: Type.Array(SecondFactorMethod) });
export type MfaRequired = Static<typeof MfaRequired>;

/** `POST /api/auth/login`. */
export const LoginAnswer = Type.Union([SignedIn, MfaRequired]);
export type LoginAnswer = Static<typeof LoginAnswer>;

/** Times in seconds (`auth_time`, as in an ID token). */
export const SessionInfo = Type.Object({ sid: Type.String(), auth_time: Type.Number(), amr: Type.Array(Type.String()), acr: Type.String() });
export type SessionInfo = Static<typeof SessionInfo>;

/** `GET /api/auth/session`. */
export const CurrentSession = Type.Object({ user: User, session: SessionInfo });
export type CurrentSession = Static<typeof CurrentSession>;

/** Any OpenID Connect provider, or GitHub (over OAuth). */
export const ProviderKind = oneOf(["oidc", "github"]);
export type ProviderKind = Static<typeof ProviderKind>;
/** An upstream provider as the login and account pages show it. */
export const ProviderButton = Type.Object({ slug: Type.String(), name: Type.String(), kind: ProviderKind });
export type ProviderButton = Static<typeof ProviderButton>;

/** `GET /api/auth/providers`: the enabled providers. */
export const ProviderButtons = Type.Object({ providers: Type.Array(ProviderButton) });
export type ProviderButtons = Static<typeof ProviderButtons>;
