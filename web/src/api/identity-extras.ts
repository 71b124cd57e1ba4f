import type { DomainAnswer, DomainList, GpgKeyAnswer, GpgKeyList } from "../../../src/contract/api/accounts.ts";
import { request } from "./http.ts";

export type { Domain, GpgKey } from "../../../src/contract/api/accounts.ts";

const send = async <T>(method: string, path: string, body?: unknown) => (await request<T>(method, path, body)).data;

/** Client of the account's custom domains and GPG keys (`/api/oauth/me/domains`, `/api/oauth/me/gpg-keys`). */
export const identityExtrasApi = {
  domains: async () => (await send<DomainList>("GET", "/api/oauth/me/domains")).domains,
  addDomain: async (domain: string) => (await send<DomainAnswer>("POST", "/api/oauth/me/domains", { domain })).domain,
  verifyDomain: async (id: string) => (await send<DomainAnswer>("POST", `/api/oauth/me/domains/${encodeURIComponent(id)}/verify`)).domain,
  removeDomain: (id: string) => send("DELETE", `/api/oauth/me/domains/${encodeURIComponent(id)}`),
  gpgKeys: async () => (await send<GpgKeyList>("GET", "/api/oauth/me/gpg-keys")).gpg_keys,
  addGpgKey: async (armored: string) => (await send<GpgKeyAnswer>("POST", "/api/oauth/me/gpg-keys", { armored })).gpg_key,
  removeGpgKey: (id: string) => send("DELETE", `/api/oauth/me/gpg-keys/${encodeURIComponent(id)}`),
};
