import type { PublicKeyCredentialCreationOptionsJSON, RegistrationResponseJSON } from "@simplewebauthn/browser";
import type { User } from "./auth.ts";
import { request } from "./http.ts";

export type DeviceSession = {
  sid: string;
  current: boolean;
  device: string;
  user_agent: string;
  ip: string;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
  amr: string[];
};

export type TotpStatus = { enabled: boolean; backup_codes_left: number };
export type TotpEnrolment = { secret: string; otpauth_uri: string };
/** Proof of presence for sensitive changes: a current code or the password. */
export type Reauth = { code: string } | { password: string };

export type Passkey = { id: string; name: string; created_at: number; last_used_at: number | null; device_type: string; backed_up: boolean };

export type AccessToken = {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  created_at: number;
  expires_at: number | null;
  last_used_at: number | null;
};

// The contract's lists, so the page offers exactly what the server accepts.
export { ADMIN_PAT_SCOPES as ADMIN_TOKEN_SCOPES, PAT_SCOPES as TOKEN_SCOPES } from "../../../src/contract/scopes.ts";

const get = async <T>(path: string) => (await request<T>("GET", path)).data;
const send = async <T>(method: string, path: string, body?: unknown) => (await request<T>(method, path, body)).data;

/** Client of the signed-in user's own API, `/api/oauth/me`. */
export const meApi = {
  profile: async () => (await get<{ user: User }>("/api/oauth/me")).user,
  updateProfile: async (patch: { name?: string; picture?: string; email?: string }) => (await send<{ user: User }>("PATCH", "/api/oauth/me", patch)).user,
  changePassword: (current_password: string, new_password: string) =>
    send<{ ok: true; other_sessions_ended: number; app_tokens_revoked: boolean }>("POST", "/api/oauth/me/password", { current_password, new_password }),
  /**
   * Deletes the signed-in account for good, confirmed by the password or a TOTP or backup code;
   * `{}` for an account with neither, within 10 minutes of signing in.
   */
  deleteAccount: (proof: Reauth | Record<string, never>) => send<{ ok: true }>("DELETE", "/api/oauth/me", proof),

  sessions: async () => (await get<{ sessions: DeviceSession[] }>("/api/oauth/me/sessions")).sessions,
  revokeSession: (sid: string) => send("DELETE", `/api/oauth/me/sessions/${encodeURIComponent(sid)}`),
  revokeOtherSessions: async () => (await send<{ revoked: number }>("DELETE", "/api/oauth/me/sessions")).revoked,

  totpStatus: () => get<TotpStatus>("/api/oauth/me/totp"),
  beginTotp: () => send<TotpEnrolment>("POST", "/api/oauth/me/totp"),
  confirmTotp: async (code: string) => (await send<{ backup_codes: string[] }>("POST", "/api/oauth/me/totp/confirm", { code })).backup_codes,
  regenerateBackupCodes: async (proof: Reauth) => (await send<{ backup_codes: string[] }>("POST", "/api/oauth/me/totp/backup-codes", proof)).backup_codes,
  disableTotp: (proof: Reauth) => send("DELETE", "/api/oauth/me/totp", proof),

  passkeys: async () => (await get<{ passkeys: Passkey[] }>("/api/oauth/me/passkeys")).passkeys,
  passkeyOptions: () => send<{ challenge_id: string; options: PublicKeyCredentialCreationOptionsJSON }>("POST", "/api/oauth/me/passkeys/options"),
  addPasskey: async (challenge_id: string, name: string, response: RegistrationResponseJSON) =>
    (await send<{ passkey: Passkey }>("POST", "/api/oauth/me/passkeys", { challenge_id, name, response })).passkey,
  renamePasskey: (id: string, name: string) => send("PATCH", `/api/oauth/me/passkeys/${encodeURIComponent(id)}`, { name }),
  deletePasskey: (id: string) => send("DELETE", `/api/oauth/me/passkeys/${encodeURIComponent(id)}`),

  tokens: async () => (await get<{ tokens: AccessToken[] }>("/api/oauth/me/tokens")).tokens,
  createToken: (input: { name: string; scopes: string[]; expires_in_days: number | null }) =>
    send<{ token: AccessToken; secret: string }>("POST", "/api/oauth/me/tokens", input),
  revokeToken: (id: string) => send("DELETE", `/api/oauth/me/tokens/${encodeURIComponent(id)}`),
};

/** A 6-digit entry is a TOTP code (a password is at least 10 characters), anything else the password. */
export function reauthFrom(value: string): Reauth {
  const trimmed = value.replace(/\s/g, "");
  return /^\d{6}$/.test(trimmed) ? { code: trimmed } : { password: value };
}
