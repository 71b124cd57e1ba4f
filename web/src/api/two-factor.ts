import type { PasskeyChallenge } from "../../../src/contract/api/common.ts";
import type { AppChallengeList, ChallengeInfo, ConfirmAnswer, ConfirmMethod, EndedSudo, SudoWindowList } from "../../../src/contract/api/two-factor.ts";
import { query, request } from "./http.ts";

export type {
  AppChallenge,
  CaptchaProvider,
  ChallengeInfo,
  ConfirmAnswer,
  ConfirmMethod,
  SudoWindow,
} from "../../../src/contract/api/two-factor.ts";

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

const send = async <T>(method: string, path: string, body?: unknown) => (await request<T>(method, path, body)).data;

/** Client of the 2FA re-confirmation API (`/api/oauth/2fa`) and its account and app lists. */
export const twoFactorApi = {
  info: (challengeId: string, state?: string) => send<ChallengeInfo>("GET", `/api/oauth/2fa/info${query({ challenge_id: challengeId, state })}`),
  passkeyOptions: (challengeId: string) => send<PasskeyChallenge>("POST", "/api/oauth/2fa/passkey-options", { challenge_id: challengeId }),
  answer: (body: ConfirmBody) => send<ConfirmAnswer>("POST", "/api/oauth/2fa/authorize", body),
  sudoWindows: async () => (await send<SudoWindowList>("GET", "/api/oauth/me/sudo")).windows,
  endSudo: (clientId: string, sessionId: string) => send<EndedSudo>("POST", "/api/oauth/2fa/sudo/revoke", { client_id: clientId, session_id: sessionId }),
  appChallenges: async (clientId: string) =>
    (await send<AppChallengeList>("GET", `/api/oauth/me/clients/${encodeURIComponent(clientId)}/2fa-challenges`)).challenges,
};
