import { type Static, Type } from "@sinclair/typebox";
import { ACTION_KEYS } from "../workspace.ts";
import { oneOf, orNull } from "./common.ts";
import { PermissionMatrix, SetOverrides } from "./workspace-records.ts";

// Spec 3 sections 2.3, 2.4, 4.2 and 4.3 (team and user settings) and the permission matrix endpoints.

/** Spec 3 section 2.3: every field, defaults filled in. */
export const TeamSettings = Type.Object({
  site_name: Type.String(),
  site_logo_url: Type.String(),
  accent_color: Type.String(),
  default_set_name: Type.String(),
  allow_member_create_sets: Type.Boolean(),
  default_timezone: Type.String(),
});
export type TeamSettings = Static<typeof TeamSettings>;

/** Spec 3 section 2.4: only what the user saved; a user who never saved any has `{}` (the client applies defaults). */
export const UserSettings = Type.Object({
  action_bar: Type.Optional(orNull(Type.Array(oneOf(ACTION_KEYS)))),
  realtime_transport: Type.Optional(oneOf(["ws", "sse", "auto"])),
  workspace_favicon: Type.Optional(Type.Boolean()),
  detailed_status: Type.Optional(Type.Boolean()),
  personal_avatar_icon: Type.Optional(Type.Boolean()),
  complete_sound_enabled: Type.Optional(Type.Boolean()),
  complete_sound_url: Type.Optional(Type.String()),
  // Issue 44: workspace notices by mail, each off until the user turns it on.
  notify_assigned: Type.Optional(Type.Boolean()),
  notify_comments: Type.Optional(Type.Boolean()),
  notify_due_digest: Type.Optional(Type.Boolean()),
  /** The user's IANA time zone (the daily digest's morning); "" follows their team's `default_timezone`. */
  timezone: Type.Optional(Type.String()),
});
export type UserSettings = Static<typeof UserSettings>;

export const TeamSettingsAnswer = Type.Object({ settings: TeamSettings });
export type TeamSettingsAnswer = Static<typeof TeamSettingsAnswer>;
export const UserSettingsAnswer = Type.Object({ settings: UserSettings });
export type UserSettingsAnswer = Static<typeof UserSettingsAnswer>;
export const MatrixAnswer = Type.Object({ permissions: PermissionMatrix });
export type MatrixAnswer = Static<typeof MatrixAnswer>;
export const OverridesAnswer = Type.Object({ permissions: SetOverrides });
export type OverridesAnswer = Static<typeof OverridesAnswer>;
