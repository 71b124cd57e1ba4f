import { eq } from "drizzle-orm";
import type { AppContext } from "../../context/context.ts";
import { withTx } from "../../db/tx.ts";
import { isValidActionBar, isValidHttpUrl, isValidTimezone } from "../../settings/validation/settings-fields.ts";
import { invalidRequest } from "../../shared/errors.ts";
import { userSettings } from "../../settings/team-settings/team-and-user-settings.table.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "workspace">;
type UserSettings = Record<string, unknown>;

const isBoolean = (value: unknown) => typeof value === "boolean";

/** Spec 3 section 2.4 constraints, per field. */
const FIELD_CHECKS: Record<string, (value: unknown) => boolean> = {
  action_bar: isValidActionBar,
  realtime_transport: (value) => value === "ws" || value === "sse" || value === "auto",
  workspace_favicon: isBoolean,
  detailed_status: isBoolean,
  personal_avatar_icon: isBoolean,
  complete_sound_enabled: isBoolean,
  complete_sound_url: isValidHttpUrl,
  // Issue 44: mail notices, off until turned on; the time zone of the daily digest ("" = the team's).
  notify_assigned: isBoolean,
  notify_comments: isBoolean,
  notify_due_digest: isBoolean,
  timezone: (value) => value === "" || isValidTimezone(value),
};

/** The user's saved preferences, or `{}` when they never saved any (the client applies defaults). */
export async function readUserSettings(ctx: Pick<AppContext, "db" | "workspace">, userId: string): Promise<UserSettings> {
  return (await ctx.db.select({ settings: userSettings.settings }).from(userSettings).where(eq(userSettings.userId, userId)).get())?.settings ?? {};
}

/** The provided 2.4 fields, each checked; unknown keys are dropped. Throws 400 on the first bad one. */
function validateUserSettingsPatch(body: Record<string, unknown>): UserSettings {
  const patch: UserSettings = {};
  for (const [key, check] of Object.entries(FIELD_CHECKS)) {
    if (!(key in body) || body[key] === undefined) continue;
    if (!check(body[key])) throw invalidRequest(`${key} is not valid`);
    patch[key] = body[key];
  }
  return patch;
}

/** Spec 3 section 4.3 PUT: only provided fields change; answers the full saved object. */
export function putUserSettings(ctx: Ctx, userId: string, body: Record<string, unknown>): Promise<UserSettings> {
  const patch = validateUserSettingsPatch(body);
  return withTx(ctx.db, async () => {
    const settings = { ...(await readUserSettings(ctx, userId)), ...patch };
    const updatedAt = ctx.clock.now();
    await ctx.db
      .insert(userSettings)
      .values({ userId, settings, updatedAt })
      .onConflictDoUpdate({ target: userSettings.userId, set: { settings, updatedAt } })
      .run();
    return settings;
  });
}
