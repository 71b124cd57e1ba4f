import type { App } from "./apps.ts";
import { request } from "./http.ts";

/** One application of the catalog (`GET /api/integrations`). */
export type Integration = {
  id: string;
  name: string;
  category: string;
  description: string;
  docs_url: string;
  ask: "base_url" | "redirect_uri" | "none";
  base_url_label: string | null;
  base_url_example: string | null;
  redirect_uris: string[];
  post_logout_redirect_uris: string[];
  token_endpoint_auth_method: string;
  id_token_signed_response_alg: string;
  jwks: "all" | "classic";
  scopes: string[];
  claims_used: string[];
  snippet: { title: string; language: string; text: string };
  notes: string;
};

/** What to paste into the app, with the real values. */
export type Setup = {
  integration: { id: string; name: string; docs_url: string };
  values: Record<string, string>;
  title: string;
  language: string;
  text: string;
  notes: string;
};

export type Answer = { name?: string; base_url?: string; redirect_uri?: string };

export type TestLoginReport = {
  ok: boolean;
  steps: { step: string; ok: boolean; detail: string }[];
  id_token: { alg: string; kid: string | null; jwks_uri: string; claims: Record<string, unknown> } | null;
  userinfo: Record<string, unknown> | null;
  claims_used: { name: string; value: unknown }[];
};

const clientPath = (clientId: string) => `/api/oauth/me/clients/${encodeURIComponent(clientId)}`;

/** Client of the integration catalog. */
export const integrationsApi = {
  list: async () => (await request<{ integrations: Integration[] }>("GET", "/api/integrations")).data.integrations,
  /** A confidential app's secret comes back this once, also inside the setup snippet. */
  register: async (id: string, answer: Answer) =>
    (await request<App & { client_secret?: string; setup: Setup }>("POST", `/api/oauth/me/integrations/${encodeURIComponent(id)}`, answer)).data,
  setup: async (clientId: string) => (await request<Setup>("GET", `${clientPath(clientId)}/setup`)).data,
  testLogin: async (clientId: string, secret?: string) =>
    (await request<TestLoginReport>("POST", `${clientPath(clientId)}/test-login`, secret ? { client_secret: secret } : {})).data,
};

/** The entry's redirect URI as it will be registered, for a preview while the user types. */
export function previewRedirect(entry: Integration, answer: Answer): string[] {
  const base = (answer.base_url ?? "").trim().replace(/\/+$/, "");
  return entry.redirect_uris.map((p) =>
    p.replace(/\{\{\s*base_url\s*\}\}/g, base || "…").replace(/\{\{\s*redirect_uri\s*\}\}/g, (answer.redirect_uri ?? "").trim() || "…"),
  );
}
