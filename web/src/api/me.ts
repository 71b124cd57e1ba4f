import type { RegistrationResponseJSON } from "@simplewebauthn/browser";
import type {
  AccessTokenList,
  AddedPasskey,
  BackupCodes,
  CreatedAccessToken,
  DeviceSessionList,
  EndedSessions,
  PasskeyCreationChallenge,
  PasskeyList,
  PasswordChanged,
  ProfileAnswer,
  TotpEnrolment,
  TotpStatus,
} from "../../../src/contract/api/accounts.ts";
import type { Ok } from "../../../src/contract/api/common.ts";
import type { User } from "../../../src/contract/api/signin.ts";
import { request } from "./http.ts";

export type { AccessToken, DeviceSession, Passkey, TotpEnrolment, TotpStatus } from "../../../src/contract/api/accounts.ts";

/** Proof of presence for sensitive changes: a current code or the password. */
export type Reauth = { code: string } | { password: string };

// The contract's lists, so the page offers exactly what the server accepts.
export { ADMIN_PAT_SCOPES as ADMIN_TOKEN_SCOPES, PAT_SCOPES as TOKEN_SCOPES } from "../../../src/contract/scopes.ts";

const get = async <T>(path: string) => (await request<T>("GET", path)).data;
const send = async <T>(method: string, path: string, body?: unknown) => (await request<T>(method, path, body)).data;

/** Client of the signed-in user's own API, `/api/oauth/me`. */
export const meApi = {
  // The SPA calls with a session, which sees the whole profile (an app's token may not see the email).
  profile: async () => (await get<ProfileAnswer>("/api/oauth/me")).user as User,
  updateProfile: async (patch: { name?: string; picture?: string; email?: string }) =>
    (await send<ProfileAnswer>("PATCH", "/api/oauth/me", patch)).user as User,
  /** Mails a new verification link to the account's address (limited per hour). */
  resendVerification: () => send<Ok>("POST", "/api/oauth/me/email/verification"),
  changePassword: (current_password: string, new_password: string) =>
    send<PasswordChanged>("POST", "/api/oauth/me/password", { current_password, new_password }),
  /**
   * Deletes the signed-in account for good, confirmed by the password or a TOTP or backup code;
   * `{}` for an account with neither, within 10 minutes of signing in.
   */
  deleteAccount: (proof: Reauth | Record<string, never>) => send<Ok>("DELETE", "/api/oauth/me", proof),

  sessions: async () => (await get<DeviceSessionList>("/api/oauth/me/sessions")).sessions,
  revokeSession: (sid: string) => send("DELETE", `/api/oauth/me/sessions/${encodeURIComponent(sid)}`),
  revokeOtherSessions: async () => (await send<EndedSessions>("DELETE", "/api/oauth/me/sessions")).revoked,

  totpStatus: () => get<TotpStatus>("/api/oauth/me/totp"),
  beginTotp: () => send<TotpEnrolment>("POST", "/api/oauth/me/totp"),
  confirmTotp: async (code: string) => (await send<BackupCodes>("POST", "/api/oauth/me/totp/confirm", { code })).backup_codes,
  regenerateBackupCodes: async (proof: Reauth) => (await send<BackupCodes>("POST", "/api/oauth/me/totp/backup-codes", proof)).backup_codes,
  disableTotp: (proof: Reauth) => send("DELETE", "/api/oauth/me/totp", proof),

  passkeys: async () => (await get<PasskeyList>("/api/oauth/me/passkeys")).passkeys,
  passkeyOptions: () => send<PasskeyCreationChallenge>("POST", "/api/oauth/me/passkeys/options"),
  addPasskey: async (challenge_id: string, name: string, response: RegistrationResponseJSON) =>
    (await send<AddedPasskey>("POST", "/api/oauth/me/passkeys", { challenge_id, name, response })).passkey,
  renamePasskey: (id: string, name: string) => send("PATCH", `/api/oauth/me/passkeys/${encodeURIComponent(id)}`, { name }),
  deletePasskey: (id: string) => send("DELETE", `/api/oauth/me/passkeys/${encodeURIComponent(id)}`),

  tokens: async () => (await get<AccessTokenList>("/api/oauth/me/tokens")).tokens,
  createToken: (input: { name: string; scopes: string[]; expires_in_days: number | null }) => send<CreatedAccessToken>("POST", "/api/oauth/me/tokens", input),
  revokeToken: (id: string) => send("DELETE", `/api/oauth/me/tokens/${encodeURIComponent(id)}`),
};

/** A 6-digit entry is a TOTP code (a password is at least 10 characters), anything else the password. */
export function reauthFrom(value: string): Reauth {
  const trimmed = value.replace(/\s/g, "");
  return /^\d{6}$/.test(trimmed) ? { code: trimmed } : { password: value };
}
