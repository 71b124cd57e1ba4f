import type { AppContext } from "../../context/context.ts";
import { readSetting, writeSetting } from "../../db/settings.repo.ts";
import { invalidDocsSetting } from "./docs-settings.errors.ts";

/**
 * The docs site's renderers, set by a site admin: a Kroki-compatible diagram renderer and a
 * LibreTranslate-compatible translation API (empty: off).
 */
export type DocsSettings = { kroki_url: string; translate_url: string; translate_locales: string[] };
type Stored = DocsSettings & { translate_key_sealed: string | null };

const KEY = "docs_settings";
const KEY_PURPOSE = "docs.translate.key";
const DEFAULTS: Stored = { kroki_url: "", translate_url: "", translate_locales: [], translate_key_sealed: null };

const stored = async (ctx: Pick<AppContext, "db">): Promise<Stored> => ({ ...DEFAULTS, ...(await readSetting<Partial<Stored>>(ctx.db, KEY)) });

export async function docsSettings(ctx: Pick<AppContext, "db">): Promise<DocsSettings> {
  const { translate_key_sealed: _, ...settings } = await stored(ctx);
  return settings;
}

export async function docsSettingsView(ctx: Pick<AppContext, "db">) {
  const all = await stored(ctx);
  return { ...(await docsSettings(ctx)), translate_key_set: all.translate_key_sealed !== null };
}

export async function translateKey(ctx: Pick<AppContext, "db" | "secrets">): Promise<string | null> {
  const sealed = (await stored(ctx)).translate_key_sealed;
  return sealed === null ? null : ctx.secrets.open(sealed, KEY_PURPOSE);
}

const httpsOrEmpty = (value: string, name: string) => {
  const url = value.trim().replace(/\/+$/, "");
  if (url === "") return "";
  let parsed: URL | null = null;
  try {
    parsed = new URL(url);
  } catch {}
  if (parsed?.protocol !== "https:" || parsed.username || parsed.password || parsed.search || parsed.hash)
    throw invalidDocsSetting(`${name} must be an https URL, or empty to turn it off.`);
  return url;
};

/** `translate_key` "" clears it; URLs are https (outbound requests are), checked unless `trusted` (tests set loopback stand-ins directly). */
export async function updateDocsSettings(
  ctx: Pick<AppContext, "db" | "clock" | "secrets">,
  patch: Partial<DocsSettings> & { translate_key?: string },
  { trusted = false } = {},
): Promise<DocsSettings> {
  const next = { ...(await stored(ctx)) };
  if (patch.kroki_url !== undefined) next.kroki_url = trusted ? patch.kroki_url : httpsOrEmpty(patch.kroki_url, "kroki_url");
  if (patch.translate_url !== undefined) next.translate_url = trusted ? patch.translate_url : httpsOrEmpty(patch.translate_url, "translate_url");
  if (patch.translate_locales !== undefined) {
    if (patch.translate_locales.some((l) => !/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})?$/.test(l)))
      throw invalidDocsSetting("translate_locales are codes like fr or pt-BR.");
    next.translate_locales = [...new Set(patch.translate_locales)].slice(0, 20);
  }
  if (patch.translate_key !== undefined) next.translate_key_sealed = patch.translate_key === "" ? null : ctx.secrets.seal(patch.translate_key, KEY_PURPOSE);
  await writeSetting(ctx.db, ctx.clock, KEY, next);
  return docsSettings(ctx);
}
