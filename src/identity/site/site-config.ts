import type { AppContext } from "../../context/context.ts";
import { readSetting, writeSetting } from "../../db/settings.repo.ts";

/** Instance-wide settings an admin changes (spec 1; ARCHITECTURE section 4). */
export type SiteConfig = {
  registration: "open" | "invite" | "closed";
  sudo_mode_ttl_minutes: number;
  require_captcha_for_2fa: boolean;
  captcha_provider: string;
  admin_requires_mfa: boolean;
};

const DEFAULT_SITE_CONFIG: SiteConfig = {
  registration: "invite",
  sudo_mode_ttl_minutes: 15,
  require_captcha_for_2fa: false,
  captcha_provider: "none",
  admin_requires_mfa: true,
};

const KEY = "site_config";

export function getSiteConfig(ctx: Pick<AppContext, "db">): SiteConfig {
  return { ...DEFAULT_SITE_CONFIG, ...readSetting<Partial<SiteConfig>>(ctx.db, KEY) };
}

export function updateSiteConfig(ctx: Pick<AppContext, "db" | "clock">, patch: Partial<SiteConfig>): SiteConfig {
  const next = { ...getSiteConfig(ctx), ...patch };
  writeSetting(ctx.db, ctx.clock, KEY, next);
  return next;
}
