import type { Ok } from "../../../src/contract/api/common.ts";
import type { Delivery, DocsOverview, DocsRefreshed, DocsSettings, DocsSettingsAnswer, DocsSource, DocsSourceAnswer } from "../../../src/contract/api/docs.ts";
import type { SourceInput as BaseInput } from "../../../src/contract/docs-sources.ts";
import { request } from "./http.ts";

// The contract's types (type-only imports, erased from the bundle).
export type { Delivery, DocsOverview, DocsSettings, DocsSource };
/** What the admin page sends: a whole source. */
export type SourceInput = Required<Pick<BaseInput, "slug" | "name" | "kind">> & BaseInput;

const send = async <T>(method: string, path: string, body?: unknown) => (await request<T>(method, path, body)).data;

/** Client of the docs site's admin API (`/api/docs`, site admins). */
export const docsApi = {
  overview: () => send<DocsOverview>("GET", "/api/docs/sources"),
  add: (input: SourceInput) => send<DocsSourceAnswer>("POST", "/api/docs/sources", input),
  update: (id: string, patch: BaseInput) => send<DocsSourceAnswer>("PATCH", `/api/docs/sources/${encodeURIComponent(id)}`, patch),
  remove: (id: string) => send<Ok>("DELETE", `/api/docs/sources/${encodeURIComponent(id)}`),
  /** The built-in guide: kept off the site, or shown again (it cannot be removed). */
  setHidden: (id: string, hidden: boolean) => send<DocsSourceAnswer>("PATCH", `/api/docs/sources/${encodeURIComponent(id)}`, { hidden }),
  refresh: async (id: string) => (await send<DocsRefreshed>("POST", `/api/docs/sources/${encodeURIComponent(id)}/refresh`)).dropped,
  settings: async () => (await send<DocsSettingsAnswer>("GET", "/api/docs/settings")).settings,
  updateSettings: async (patch: Partial<Omit<DocsSettings, "translate_key_set">> & { translate_key?: string }) =>
    (await send<DocsSettingsAnswer>("PATCH", "/api/docs/settings", patch)).settings,
};
