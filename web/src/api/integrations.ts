import type { App } from "./apps.ts";
import type { Integration } from "../../../src/contract/integrations.ts";
import { request } from "./http.ts";

export type { Integration } from "../../../src/contract/integrations.ts";

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
