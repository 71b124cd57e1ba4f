import { type Static, Type } from "@sinclair/typebox";
import { oneOf, orNull } from "./common.ts";

// The docs site's admin API (`/api/docs`, site admins): sources, webhook deliveries, renderers.

/** A documentation source as the admin API shows it (its access token never, only whether one is set). */
export const DocsSourceView = Type.Object({
  id: Type.String(),
  slug: Type.String(),
  name: Type.String(),
  /** `builtin`: Cairn's own guide, carried in the executable; it can be hidden, not edited or removed. */
  kind: oneOf(["github", "local", "builtin"]),
  full_name: orNull(Type.String()),
  branch: Type.String(),
  docs_root: Type.String(),
  api_base: Type.String(),
  token_set: Type.Boolean(),
  local_path: orNull(Type.String()),
  locales: Type.Array(Type.String()),
  default_locale: Type.String(),
  url: Type.String(),
  created_at: Type.Number(),
  /** Kept off the site by an admin (only the built-in guide can be). */
  hidden: Type.Boolean(),
});
export type DocsSourceView = Static<typeof DocsSourceView>;

/** A source in the list, with what its cache holds now, per kind of entry. */
export const DocsSource = Type.Composite([
  DocsSourceView,
  Type.Object({ cache: Type.Array(Type.Object({ kind: Type.String(), entries: Type.Number(), bytes: Type.Number() })) }),
]);
export type DocsSource = Static<typeof DocsSource>;

/** A push webhook delivery as the list shows it; `result` is what was answered, as text. */
export const Delivery = Type.Object({
  id: Type.String(),
  event: Type.String(),
  repository: orNull(Type.String()),
  received_at: Type.Number(),
  result: Type.String(),
  invalidated: Type.Number(),
});
export type Delivery = Static<typeof Delivery>;

/** `GET /api/docs/sources`. */
export const DocsOverview = Type.Object({
  sources: Type.Array(DocsSource),
  webhook: Type.Object({ url: Type.String(), secret_configured: Type.Boolean() }),
  deliveries: Type.Array(Delivery),
});
export type DocsOverview = Static<typeof DocsOverview>;

export const DocsSourceAnswer = Type.Object({ source: DocsSourceView });
export type DocsSourceAnswer = Static<typeof DocsSourceAnswer>;
export const DocsRefreshed = Type.Object({ dropped: Type.Number() });
export type DocsRefreshed = Static<typeof DocsRefreshed>;

/** The renderers: a Kroki-compatible diagram renderer and a LibreTranslate-compatible API ("" is off). */
export const DocsSettings = Type.Object({
  kroki_url: Type.String(),
  translate_url: Type.String(),
  translate_locales: Type.Array(Type.String()),
  translate_key_set: Type.Boolean(),
});
export type DocsSettings = Static<typeof DocsSettings>;

export const DocsSettingsAnswer = Type.Object({ settings: DocsSettings });
export type DocsSettingsAnswer = Static<typeof DocsSettingsAnswer>;
