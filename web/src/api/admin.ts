import type { AdminUserAnswer, AuditEntries, CreatedInvite, InviteList, SiteConfig, SiteConfigAnswer, UserPage } from "../../../src/contract/api/admin.ts";
import type { Ok } from "../../../src/contract/api/common.ts";
import type { ResetLink } from "../../../src/contract/api/password-resets.ts";
import { query, request } from "./http.ts";

export type { AdminUser, AuditEntry, Invite, Registration, SiteConfig } from "../../../src/contract/api/admin.ts";
/** A patch of the settings; `captcha_secret` is write-only ("" clears it). */
export type SiteConfigPatch = Partial<Omit<SiteConfig, "captcha_secret_set">> & { captcha_secret?: string };

const get = async <T>(path: string) => (await request<T>("GET", path)).data;
const send = async <T>(method: string, path: string, body?: unknown) => (await request<T>(method, path, body)).data;

/** Client of site administration, `/api/oauth/admin` (admins only). */
export const adminApi = {
  users: (q: string, limit = 50, offset = 0) => get<UserPage>(`/api/oauth/admin/users${query({ q, limit, offset })}`),
  updateUser: async (id: string, patch: { role?: "admin" | "user"; disabled?: boolean; email_verified?: boolean }) =>
    (await send<AdminUserAnswer>("PATCH", `/api/oauth/admin/users/${encodeURIComponent(id)}`, patch)).user,
  /** Deletes the account for good; 409 for the last administrator or teams it alone owns. */
  deleteUser: (id: string) => send<Ok>("DELETE", `/api/oauth/admin/users/${encodeURIComponent(id)}`),
  /** A one-use link (a day) with which the person sets a new password; older links for them stop working. */
  createResetLink: (id: string) => send<ResetLink>("POST", `/api/oauth/admin/users/${encodeURIComponent(id)}/reset-link`),

  invites: async () => (await get<InviteList>("/api/oauth/admin/invites")).invites,
  /** `send_email`: also mail the link to `email`. */
  createInvite: (input: { email?: string; expires_in_hours?: number; send_email?: boolean }) => send<CreatedInvite>("POST", "/api/oauth/admin/invites", input),
  deleteInvite: (id: string) => send("DELETE", `/api/oauth/admin/invites/${encodeURIComponent(id)}`),

  config: async () => (await get<SiteConfigAnswer>("/api/oauth/admin/config")).config,
  updateConfig: async (patch: SiteConfigPatch) => (await send<SiteConfigAnswer>("PATCH", "/api/oauth/admin/config", patch)).config,

  audit: async (before?: number, limit = 50) => (await get<AuditEntries>(`/api/oauth/admin/audit${query({ before, limit })}`)).entries,
};
