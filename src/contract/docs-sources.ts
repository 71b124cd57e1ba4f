/**
 * A documentation source as the admin API takes it (`POST`/`PATCH /api/docs/sources`): shared by
 * the server, which checks it, and the admin page, which sends it.
 */
export type SourceInput = {
  slug?: string;
  name?: string;
  kind?: "github" | "local";
  /** owner/repository on the hosting service. */
  full_name?: string;
  branch?: string;
  docs_root?: string;
  api_base?: string;
  /** An access token for a private repository; "" clears it. */
  token?: string;
  local_path?: string;
  locales?: string[];
  default_locale?: string;
  /** Only for the built-in guide, which is hidden or shown rather than edited or removed. */
  hidden?: boolean;
};
