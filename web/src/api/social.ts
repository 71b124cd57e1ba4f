import type { LinkedAccounts, LinkStarted } from "../../../src/contract/api/accounts.ts";
import type { DeletedIdentityProvider, IdentityProvider, IdentityProviderAnswer, IdentityProviderList } from "../../../src/contract/api/admin.ts";
import type { ProviderButtons } from "../../../src/contract/api/signin.ts";
import { request } from "./http.ts";

export type { LinkedAccounts, SocialAccount } from "../../../src/contract/api/accounts.ts";
export type { IdentityProvider } from "../../../src/contract/api/admin.ts";
export type { ProviderButton } from "../../../src/contract/api/signin.ts";

export type ProviderInput = Partial<Omit<IdentityProvider, "id" | "client_secret_set" | "callback_url" | "linked_accounts" | "created_at" | "updated_at">> & {
  client_secret?: string;
};

const send = async <T>(method: string, path: string, body?: unknown) => (await request<T>(method, path, body)).data;
const ADMIN = "/api/oauth/admin/identity-providers";

/** Where the login page's button goes: the server starts the sign-in and sends the browser on. */
export const socialStartUrl = (slug: string, returnTo: string) =>
  `/api/auth/social/${encodeURIComponent(slug)}/start?return_to=${encodeURIComponent(returnTo)}`;

/** Sign-in with upstream providers: the buttons, the account's links, and their administration. */
export const socialApi = {
  providers: async () => (await send<ProviderButtons>("GET", "/api/auth/providers")).providers,
  linked: () => send<LinkedAccounts>("GET", "/api/oauth/me/social-accounts"),
  link: async (provider: string) => (await send<LinkStarted>("POST", "/api/oauth/me/social-accounts/link", { provider })).redirect_to,
  unlink: (id: string) => send("DELETE", `/api/oauth/me/social-accounts/${encodeURIComponent(id)}`),
  adminList: async () => (await send<IdentityProviderList>("GET", ADMIN)).providers,
  create: async (input: ProviderInput) => (await send<IdentityProviderAnswer>("POST", ADMIN, input)).provider,
  update: async (id: string, input: ProviderInput) => (await send<IdentityProviderAnswer>("PATCH", `${ADMIN}/${encodeURIComponent(id)}`, input)).provider,
  remove: (id: string) => send<DeletedIdentityProvider>("DELETE", `${ADMIN}/${encodeURIComponent(id)}`),
};
