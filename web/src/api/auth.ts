import type { AuthenticationResponseJSON } from "@simplewebauthn/browser";
import type { PasskeyChallenge } from "../../../src/contract/api/common.ts";
import type { CurrentSession, LoginAnswer, SignedIn } from "../../../src/contract/api/signin.ts";
import type { RegistrationInfo } from "../../../src/contract/api/sign-up.ts";
import type { Ok } from "../../../src/contract/api/common.ts";
import { query, request } from "./http.ts";

export type { PasskeyChallenge } from "../../../src/contract/api/common.ts";
export type { LoginAnswer, SecondFactorMethod, SessionInfo, SignedIn, User } from "../../../src/contract/api/signin.ts";
export type { RegistrationInfo } from "../../../src/contract/api/sign-up.ts";

export type RegisterInput = { username: string; email: string; password: string; name?: string; invite?: string };

export type PasskeyProof = { challenge_id: string; response: AuthenticationResponseJSON };

export type MfaProof = { code: string } | { backup_code: string } | { passkey: PasskeyProof };

/** Client of the sign-in API, `/api/auth` (ARCHITECTURE section 4). */
export const authApi = {
  async register(input: RegisterInput, setupToken = ""): Promise<SignedIn> {
    const headers: Record<string, string> = setupToken ? { "x-setup-token": setupToken } : {};
    return (await request<SignedIn>("POST", "/api/auth/register", input, headers)).data;
  },
  /** `factor`: a second factor sent along (it also passes a sign-in paused after failures). */
  async login(login: string, password: string, factor?: { code: string } | { backup_code: string }): Promise<LoginAnswer> {
    return (await request<LoginAnswer>("POST", "/api/auth/login", { login, password, ...factor })).data;
  },
  async loginMfa(mfaToken: string, proof: MfaProof): Promise<SignedIn> {
    return (await request<SignedIn>("POST", "/api/auth/login/mfa", { mfa_token: mfaToken, ...proof })).data;
  },
  async mfaPasskeyOptions(mfaToken: string): Promise<PasskeyChallenge> {
    return (await request<PasskeyChallenge>("POST", "/api/auth/login/mfa/passkey-options", { mfa_token: mfaToken })).data;
  },
  async passkeyOptions(): Promise<PasskeyChallenge> {
    return (await request<PasskeyChallenge>("POST", "/api/auth/passkey/options")).data;
  },
  async passkeyVerify(proof: PasskeyProof): Promise<SignedIn> {
    return (await request<SignedIn>("POST", "/api/auth/passkey/verify", proof)).data;
  },
  async session(): Promise<CurrentSession> {
    return (await request<CurrentSession>("GET", "/api/auth/session")).data;
  },
  /** Whether accounts are open, and the invitation a code names (with the one email it admits) while usable. */
  async registration(invite?: string): Promise<RegistrationInfo> {
    return (await request<RegistrationInfo>("GET", `/api/auth/registration${query({ invite })}`)).data;
  },
  /** Sets a new password with a reset link's token; every session of the account ends (and, for an administrator's link, every second factor). */
  async resetPassword(token: string, password: string): Promise<Ok> {
    return (await request<Ok>("POST", "/api/auth/password/reset", { token, password })).data;
  },
  /** "Forgot password?": mails a reset link to the account a username or email names; the answer is the same whether or not there is one. */
  async forgotPassword(login: string): Promise<Ok> {
    return (await request<Ok>("POST", "/api/auth/password/forgot", { login })).data;
  },
  /** Confirms an address with the token of the link mailed to it. */
  async confirmEmail(token: string): Promise<Ok> {
    return (await request<Ok>("POST", "/api/auth/email/confirm", { token })).data;
  },
  async logout(): Promise<void> {
    await request("POST", "/api/auth/logout");
  },
};
