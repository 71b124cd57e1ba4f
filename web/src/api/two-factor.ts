import type { PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/browser";
import { query, request } from "./http.ts";

export type ConfirmMethod = "totp" | "passkey" | "backup" | "sudo";
export type CaptchaProvider = "none" | "pow" | "hcaptcha" | "turnstile" | "recaptcha";

/** `GET /api/oauth/2fa/info`: what the confirmation page shows. */
export type ChallengeInfo = {
  client: { client_id: string; name: string; is_verified: boolean };
  action: string;
  expires_at: number;
  methods: Exclude<ConfirmMethod, "sudo">[];
  sudo_available: boolean;
  sudo_expires_at: number | null;
  sudo_ttl_minutes: number;
  captcha_required: boolean;
  captcha_provider: CaptchaProvider;
  captcha_site_key: string | null;
  pow?: { challenge: string; difficulty: number };
};

export type ConfirmBody = {
  challenge_id: string;
  state?: string;
  decision: "approve" | "reject";
  confirmed?: boolean;
  method?: ConfirmMethod;
  code?: string;
  passkey?: { challenge_id: string; response: unknown };
  remember_sudo?: boolean;
  captcha_token?: string;
  pow_challenge?: string;
  pow_nonce?: string;
};

export type ConfirmAnswer = { redirect_to: string; error?: "access_denied"; error_description?: string };

export type SudoWindow = {
  client_id: string;
  client_name: string;
  session_id: string;
  this_device: boolean;
  user_agent: string;
  created_at: number;
  expires_at: number;
};

export type AppChallenge = {
  created_at: number;
  action: string;
  status: "created" | "expired" | "approved" | "closed" | "redeemed";
  method: ConfirmMethod | null;
  verified_at: number | null;
  captcha: boolean;
};

const send = async <T>(method: string, path: string, body?: unknown) => (await request<T>(method, path, body)).data;

/** Client of the 2FA re-confirmation API (`/api/oauth/2fa`) and its account and app lists. */
export const twoFactorApi = {
  info: (challengeId: string, state?: string) => send<ChallengeInfo>("GET", `/api/oauth/2fa/info${query({ challenge_id: challengeId, state })}`),
  passkeyOptions: (challengeId: string) =>
    send<{ challenge_id: string; options: PublicKeyCredentialRequestOptionsJSON }>("POST", "/api/oauth/2fa/passkey-options", { challenge_id: challengeId }),
  answer: (body: ConfirmBody) => send<ConfirmAnswer>("POST", "/api/oauth/2fa/authorize", body),
  sudoWindows: async () => (await send<{ windows: SudoWindow[] }>("GET", "/api/oauth/me/sudo")).windows,
  endSudo: (clientId: string, sessionId: string) => send("POST", "/api/oauth/2fa/sudo/revoke", { client_id: clientId, session_id: sessionId }),
  appChallenges: async (clientId: string) =>
    (await send<{ challenges: AppChallenge[] }>("GET", `/api/oauth/me/clients/${encodeURIComponent(clientId)}/2fa-challenges`)).challenges,
};
