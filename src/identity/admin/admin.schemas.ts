import { t } from "elysia";

export const UserSearchQuery = t.Object({
  q: t.Optional(t.String({ maxLength: 200 })),
  limit: t.Optional(t.Numeric({ minimum: 1, maximum: 200, multipleOf: 1 })),
  offset: t.Optional(t.Numeric({ minimum: 0, maximum: 1_000_000_000, multipleOf: 1 })),
});

export const AdminUserPatch = t.Object({
  role: t.Optional(t.Union([t.Literal("admin"), t.Literal("user")])),
  disabled: t.Optional(t.Boolean()),
  /** An administrator vouches for the address (issue 44), or takes that back. */
  email_verified: t.Optional(t.Boolean()),
});

export const InviteBody = t.Object({
  email: t.Optional(t.Union([t.String({ maxLength: 320 }), t.Null()])),
  expires_in_hours: t.Optional(t.Integer()),
  /** Also mail the link to `email` (issue 44). */
  send_email: t.Optional(t.Boolean()),
});

export const SiteConfigPatch = t.Object({
  registration: t.Optional(t.Union([t.Literal("open"), t.Literal("invite"), t.Literal("closed")])),
  sudo_mode_ttl_minutes: t.Optional(t.Integer({ minimum: 0, maximum: 1440 })),
  require_captcha_for_2fa: t.Optional(t.Boolean()),
  // Not t.UnionEnum: Elysia gives it its first value as a default, so a patch without the field would reset it to "none".
  captcha_provider: t.Optional(t.Union([t.Literal("none"), t.Literal("pow"), t.Literal("hcaptcha"), t.Literal("turnstile"), t.Literal("recaptcha")])),
  captcha_site_key: t.Optional(t.String({ maxLength: 200, pattern: "^[A-Za-z0-9_.:-]*$" })),
  captcha_secret: t.Optional(t.String({ maxLength: 500 })),
  captcha_verify_url: t.Optional(t.String({ maxLength: 500 })),
  pow_difficulty: t.Optional(t.Integer({ minimum: 8, maximum: 26 })),
  admin_requires_mfa: t.Optional(t.Boolean()),
});

export const AuditQuery = t.Object({
  before: t.Optional(t.Numeric({ minimum: 1, maximum: 9_007_199_254_740_991, multipleOf: 1 })),
  limit: t.Optional(t.Numeric({ minimum: 1, maximum: 200, multipleOf: 1 })),
});
