import { request } from "./http.ts";

export type Domain = {
  id: string;
  domain: string;
  verified: boolean;
  verified_at: number | null;
  last_checked_at: number | null;
  txt_record: { name: string; value: string };
};
export type GpgKey = {
  id: string;
  fingerprint: string;
  key_id: string;
  algorithm: string;
  expires_at: number | null;
  user_ids: { uid: string; name: string; email: string; verified: boolean }[];
  created_at: number;
};

const send = async <T>(method: string, path: string, body?: unknown) => (await request<T>(method, path, body)).data;

/** Client of the account's custom domains and GPG keys (`/api/oauth/me/domains`, `/api/oauth/me/gpg-keys`). */
export const identityExtrasApi = {
  domains: async () => (await send<{ domains: Domain[] }>("GET", "/api/oauth/me/domains")).domains,
  addDomain: async (domain: string) => (await send<{ domain: Domain }>("POST", "/api/oauth/me/domains", { domain })).domain,
  verifyDomain: async (id: string) => (await send<{ domain: Domain }>("POST", `/api/oauth/me/domains/${encodeURIComponent(id)}/verify`)).domain,
  removeDomain: (id: string) => send("DELETE", `/api/oauth/me/domains/${encodeURIComponent(id)}`),
  gpgKeys: async () => (await send<{ gpg_keys: GpgKey[] }>("GET", "/api/oauth/me/gpg-keys")).gpg_keys,
  addGpgKey: async (armored: string) => (await send<{ gpg_key: GpgKey }>("POST", "/api/oauth/me/gpg-keys", { armored })).gpg_key,
  removeGpgKey: (id: string) => send("DELETE", `/api/oauth/me/gpg-keys/${encodeURIComponent(id)}`),
};
