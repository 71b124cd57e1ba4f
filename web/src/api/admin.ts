import { query, request } from "./http.ts";
import type { CaptchaProvider } from "./two-factor.ts";

export type AdminUser = { id: string; username: string; email: string; name: string; role: "admin" | "user"; disabled: boolean; created_at: number };
export type Invite = {
  id: string;
  email: string | null;
  created_at: number;
  expires_at: number;
  used_at: number | null;
  used_by: string | null;
  status: "pending" | "used" | "expired";
};
export type Registration = "open" | "invite" | "closed";
export type SiteConfig = {
  registration: Registration;
  sudo_mode_ttl_minutes: number;
  require_captcha_for_2fa: boolean;
  captcha_provider: CaptchaProvider;
  captcha_site_key: string;
  captcha_verify_url: string;
  pow_difficulty: number;
  admin_requires_mfa: boolean;
  /** Read only: whether a provider secret is stored (it is never sent back). */
  captcha_secret_set: boolean;
};
/** A patch of the settings; `captcha_secret` is write-only ("" clears it). */
export type SiteConfigPatch = Partial<Omit<SiteConfig, "captcha_secret_set">> & { captcha_secret?: string };
export type AuditEntry = {
  id: number;
  at: number;
  actor_user_id: string | null;
  action: string;
  team_id: string | null;
  target_user_id: string | null;
  details: unknown;
};

const get = async <T>(path: string) => (await request<T>("GET", path)).data;
const send = async <T>(method: string, path: string, body?: unknown) => (await request<T>(method, path, body)).data;

/** Client of site administration, `/api/oauth/admin` (admins only). */
export const adminApi = {
  users: (q: string, limit = 50, offset = 0) => get<{ users: AdminUser[]; total: number }>(`/api/oauth/admin/users${query({ q, limit, offset })}`),
  updateUser: async (id: string, patch: { role?: "admin" | "user"; disabled?: boolean }) =>
    (await send<{ user: AdminUser }>("PATCH", `/api/oauth/admin/users/${encodeURIComponent(id)}`, patch)).user,
  /** Deletes the account for good; 409 for the last administrator or teams it alone owns. */
  deleteUser: (id: string) => send<{ ok: true }>("DELETE", `/api/oauth/admin/users/${encodeURIComponent(id)}`),

  invites: async () => (await get<{ invites: Invite[] }>("/api/oauth/admin/invites")).invites,
  createInvite: (input: { email?: string; expires_in_hours?: number }) =>
    send<{ invite: Invite; code: string; url: string }>("POST", "/api/oauth/admin/invites", input),
  deleteInvite: (id: string) => send("DELETE", `/api/oauth/admin/invites/${encodeURIComponent(id)}`),

  config: async () => (await get<{ config: SiteConfig }>("/api/oauth/admin/config")).config,
  updateConfig: async (patch: SiteConfigPatch) => (await send<{ config: SiteConfig }>("PATCH", "/api/oauth/admin/config", patch)).config,

  audit: async (before?: number, limit = 50) => (await get<{ entries: AuditEntry[] }>(`/api/oauth/admin/audit${query({ before, limit })}`)).entries,
};
