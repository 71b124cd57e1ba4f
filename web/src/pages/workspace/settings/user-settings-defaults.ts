import type { UserSettings } from "../../../api/workspace.ts";

export type ResolvedUserSettings = Required<UserSettings>;

/**
 * Spec 3 section 2.4: what a user who never saved a preference gets (the server answers `{}`).
 * The spec names only action_bar (null: the workspace default) and realtime_transport (`auto`);
 * the switches default to off so nothing changes until the user asks for it.
 */
const USER_SETTINGS_DEFAULTS: ResolvedUserSettings = {
  action_bar: null,
  realtime_transport: "auto",
  workspace_favicon: false,
  detailed_status: false,
  personal_avatar_icon: false,
  complete_sound_enabled: false,
  complete_sound_url: "",
  // Issue 44: every mail notice is off until the person turns it on; "" follows the team's zone.
  notify_assigned: false,
  notify_comments: false,
  notify_due_digest: false,
  timezone: "",
};

/** Saved preferences with the defaults filled in for everything not saved. */
export function resolveUserSettings(saved: UserSettings): ResolvedUserSettings {
  const resolved = { ...USER_SETTINGS_DEFAULTS };
  for (const key of Object.keys(USER_SETTINGS_DEFAULTS) as (keyof UserSettings)[]) {
    if (saved[key] !== undefined) Object.assign(resolved, { [key]: saved[key] });
  }
  return resolved;
}
