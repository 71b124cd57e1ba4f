import type { SiteConfig as SiteConfigView } from "../../contract/api/admin.ts";
import type { AppContext } from "../../context/context.ts";
import { readSetting, writeSetting } from "../../db/settings.repo.ts";
import { badInput } from "../users/identity.errors.ts";

/** The captcha providers a 2FA confirmation can be gated by; `none` switches the gate off. */
export const CAPTCHA_PROVIDERS = ["none", "pow", "hcaptcha", "turnstile", "recaptcha"] as const;
export type CaptchaProvider = (typeof CAPTCHA_PROVIDERS)[number];

/** Instance-wide settings an admin changes (spec 1; ARCHITECTURE section 4): the admin API's answer less what it derives. */
export type SiteConfig = Omit<SiteConfigView, "captcha_secret_set">;

/**
 * What is stored: the settings plus the provider's secret key, sealed (never answered), and when
 * sudo was last turned off (windows opened before then stay ended when it is turned on again).
 */
type StoredSiteConfig = SiteConfig & { captcha_secret_sealed: string | null; sudo_off_at: number };

const DEFAULT_SITE_CONFIG: StoredSiteConfig = {
  registration: "invite",
  sudo_mode_ttl_minutes: 15,
  require_captcha_for_2fa: false,
  captcha_provider: "none",
  captcha_site_key: "",
  captcha_verify_url: "",
  pow_difficulty: 18,
  admin_requires_mfa: true,
  captcha_secret_sealed: null,
  sudo_off_at: 0,
};

const KEY = "site_config";
const SECRET_PURPOSE = "captcha.secret";

async function stored(ctx: Pick<AppContext, "db">): Promise<StoredSiteConfig> {
  const saved = (await readSetting<Partial<StoredSiteConfig>>(ctx.db, KEY)) ?? {};
  const merged = { ...DEFAULT_SITE_CONFIG, ...saved };
  // A provider name saved before the list was fixed counts as none.
  if (!CAPTCHA_PROVIDERS.includes(merged.captcha_provider)) merged.captcha_provider = "none";
  return merged;
}

const publicPart = ({ captcha_secret_sealed: _, sudo_off_at: __, ...config }: StoredSiteConfig): SiteConfig => config;

export async function getSiteConfig(ctx: Pick<AppContext, "db">): Promise<SiteConfig> {
  return publicPart(await stored(ctx));
}

/** When sudo was last turned off (ms; 0 when never): no window opened before then counts. */
export async function sudoOffAt(ctx: Pick<AppContext, "db">): Promise<number> {
  return (await stored(ctx)).sudo_off_at;
}

/** The settings as the admin API answers them: the secret only as "set or not". */
export async function siteConfigView(ctx: Pick<AppContext, "db">) {
  const all = await stored(ctx);
  return { ...publicPart(all), captcha_secret_set: all.captcha_secret_sealed !== null };
}

/** The third-party captcha provider's secret key, or null when none is stored. */
export async function captchaSecret(ctx: Pick<AppContext, "db" | "secrets">): Promise<string | null> {
  const sealed = (await stored(ctx)).captcha_secret_sealed;
  return sealed === null ? null : ctx.secrets.open(sealed, SECRET_PURPOSE);
}

/** A patch; `captcha_secret` sets the secret (sealed), and "" clears it. */
export async function updateSiteConfig(
  ctx: Pick<AppContext, "db" | "clock"> & Partial<Pick<AppContext, "secrets">>,
  patch: Partial<SiteConfig> & { captcha_secret?: string },
): Promise<SiteConfig> {
  const { captcha_secret, ...settings } = patch;
  const next = { ...(await stored(ctx)), ...settings };
  if (captcha_secret !== undefined) {
    if (captcha_secret !== "" && !ctx.secrets) throw new Error("sealing the captcha secret needs the instance secret");
    next.captcha_secret_sealed = captcha_secret === "" ? null : (ctx.secrets as AppContext["secrets"]).seal(captcha_secret, SECRET_PURPOSE);
  }
  if (settings.sudo_mode_ttl_minutes === 0) next.sudo_off_at = ctx.clock.now();
  await writeSetting(ctx.db, ctx.clock, KEY, next);
  return publicPart(next);
}

/** An admin's patch, checked beyond its schema: a verify URL is https (outbound requests are). */
export function checkedSiteConfigPatch<P extends { captcha_verify_url?: string }>(patch: P): P {
  const url = patch.captcha_verify_url?.trim();
  if (url) {
    let parsed: URL | null = null;
    try {
      parsed = new URL(url);
    } catch {}
    if (parsed?.protocol !== "https:") throw badInput("captcha_verify_url must be an https URL, or empty for the provider's own.");
  }
  return url === undefined ? patch : { ...patch, captcha_verify_url: url };
}
