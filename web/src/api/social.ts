import { request } from "./http.ts";

/** An upstream provider as the login page and account page see it. */
export type ProviderButton = { slug: string; name: string; kind: "oidc" | "github" };

export type SocialAccount = {
  id: string;
  provider: string;
  provider_name: string;
  provider_user_id: string;
  login: string;
  email: string;
  created_at: number;
  last_used_at: number | null;
};

export type LinkedAccounts = { social_accounts: SocialAccount[]; has_password: boolean; providers: ProviderButton[] };

/** A provider as administrators see it (never its secret). */
export type IdentityProvider = {
  id: string;
  slug: string;
  kind: "oidc" | "github";
  name: string;
  issuer: string;
  web_url: string;
  api_url: string;
  client_id: string;
  client_secret_set: boolean;
  scopes: string;
  enabled: boolean;
  trust_email: boolean;
  callback_url: string;
  linked_accounts: number;
};

export type ProviderInput = Partial<Omit<IdentityProvider, "id" | "client_secret_set" | "callback_url" | "linked_accounts">> & { client_secret?: string };

const send = async <T>(method: string, path: string, body?: unknown) => (await request<T>(method, path, body)).data;
const ADMIN = "/api/oauth/admin/identity-providers";

/** Where the login page's button goes: the server starts the sign-in and sends the browser on. */
export const socialStartUrl = (slug: string, returnTo: string) =>
  `/api/auth/social/${encodeURIComponent(slug)}/start?return_to=${encodeURIComponent(returnTo)}`;

/** Sign-in with upstream providers: the buttons, the account's links, and their administration. */
export const socialApi = {
  providers: async () => (await send<{ providers: ProviderButton[] }>("GET", "/api/auth/providers")).providers,
  linked: () => send<LinkedAccounts>("GET", "/api/oauth/me/social-accounts"),
  link: async (provider: string) => (await send<{ redirect_to: string }>("POST", "/api/oauth/me/social-accounts/link", { provider })).redirect_to,
  unlink: (id: string) => send("DELETE", `/api/oauth/me/social-accounts/${encodeURIComponent(id)}`),
  adminList: async () => (await send<{ providers: IdentityProvider[] }>("GET", ADMIN)).providers,
  create: async (input: ProviderInput) => (await send<{ provider: IdentityProvider }>("POST", ADMIN, input)).provider,
  update: async (id: string, input: ProviderInput) =>
    (await send<{ provider: IdentityProvider }>("PATCH", `${ADMIN}/${encodeURIComponent(id)}`, input)).provider,
  remove: (id: string) => send<{ ok: true; unlinked: number }>("DELETE", `${ADMIN}/${encodeURIComponent(id)}`),
};
