import { t } from "elysia";

// Types only: values (URL, colour, timezone, action keys) are checked by the services, which
// answer 400 `Invalid request` and change nothing. Unknown keys are ignored (spec 3 section 4.3).

/** Spec 3 section 2.3, any subset. */
export const TeamSettingsPatchSchema = t.Object({
  site_name: t.Optional(t.String()),
  site_logo_url: t.Optional(t.String()),
  accent_color: t.Optional(t.String()),
  default_set_name: t.Optional(t.String()),
  allow_member_create_sets: t.Optional(t.Boolean()),
  default_timezone: t.Optional(t.String()),
});

/** Spec 3 section 2.4, any subset. */
export const UserSettingsPatchSchema = t.Object({
  action_bar: t.Optional(t.Union([t.Array(t.String()), t.Null()])),
  realtime_transport: t.Optional(t.String()),
  workspace_favicon: t.Optional(t.Boolean()),
  detailed_status: t.Optional(t.Boolean()),
  personal_avatar_icon: t.Optional(t.Boolean()),
  complete_sound_enabled: t.Optional(t.Boolean()),
  complete_sound_url: t.Optional(t.String()),
  notify_assigned: t.Optional(t.Boolean()),
  notify_comments: t.Optional(t.Boolean()),
  notify_due_digest: t.Optional(t.Boolean()),
  timezone: t.Optional(t.String()),
});

export const SetParamsSchema = t.Object({ teamId: t.String(), setId: t.String() });
