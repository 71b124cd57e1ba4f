import type { Integration, IntegrationList, RegisteredIntegration, Setup, TestLoginReport } from "../../../src/contract/api/integrations.ts";
import { request } from "./http.ts";

export type { Integration, Setup, TestLoginReport } from "../../../src/contract/api/integrations.ts";

export type Answer = { name?: string; base_url?: string; redirect_uri?: string };

const clientPath = (clientId: string) => `/api/oauth/me/clients/${encodeURIComponent(clientId)}`;

/** Client of the integration catalog. */
export const integrationsApi = {
  list: async () => (await request<IntegrationList>("GET", "/api/integrations")).data.integrations,
  /** A confidential app's secret comes back this once, also inside the setup snippet. */
  register: async (id: string, answer: Answer) =>
    (await request<RegisteredIntegration>("POST", `/api/oauth/me/integrations/${encodeURIComponent(id)}`, answer)).data,
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
