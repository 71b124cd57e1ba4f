import type { SourceInput as BaseInput } from "../../../src/contract/docs-sources.ts";
import { request } from "./http.ts";

export type DocsSource = {
  id: string;
  slug: string;
  name: string;
  kind: "github" | "local";
  full_name: string | null;
  branch: string;
  docs_root: string;
  api_base: string;
  token_set: boolean;
  local_path: string | null;
  locales: string[];
  default_locale: string;
  url: string;
  created_at: number;
  cache: { kind: string; entries: number; bytes: number }[];
};
/** What the admin page sends: a whole source. */
export type SourceInput = Required<Pick<BaseInput, "slug" | "name" | "kind">> & BaseInput;
export type Delivery = { id: string; event: string; repository: string | null; received_at: number; result: string; invalidated: number };
export type DocsOverview = { sources: DocsSource[]; webhook: { url: string; secret_configured: boolean }; deliveries: Delivery[] };
export type DocsSettings = { kroki_url: string; translate_url: string; translate_locales: string[]; translate_key_set: boolean };

const send = async <T>(method: string, path: string, body?: unknown) => (await request<T>(method, path, body)).data;

/** Client of the docs site's admin API (`/api/docs`, site admins). */
export const docsApi = {
  overview: () => send<DocsOverview>("GET", "/api/docs/sources"),
  add: (input: SourceInput) => send<{ source: DocsSource }>("POST", "/api/docs/sources", input),
  update: (id: string, patch: BaseInput) => send<{ source: DocsSource }>("PATCH", `/api/docs/sources/${encodeURIComponent(id)}`, patch),
  remove: (id: string) => send("DELETE", `/api/docs/sources/${encodeURIComponent(id)}`),
  refresh: async (id: string) => (await send<{ dropped: number }>("POST", `/api/docs/sources/${encodeURIComponent(id)}/refresh`)).dropped,
  settings: async () => (await send<{ settings: DocsSettings }>("GET", "/api/docs/settings")).settings,
  updateSettings: async (patch: Partial<Omit<DocsSettings, "translate_key_set">> & { translate_key?: string }) =>
    (await send<{ settings: DocsSettings }>("PATCH", "/api/docs/settings", patch)).settings,
};
