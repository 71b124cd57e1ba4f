import type { AppContext } from "../../context/context.ts";
import { withTx } from "../../db/tx.ts";
import { isValidCssColor, isValidHttpUrl, isValidTimezone } from "../../settings/validation/settings-fields.ts";
import { forbidden, invalidRequest } from "../../shared/errors.ts";
import { canManageSettings } from "../permissions/permissions.policy.ts";
import { permissionsOf } from "../permissions/permissions.resolve.ts";
import type { MemberActor } from "../permissions/actor.ts";
import { DEFAULT_TEAM_SETTINGS, readTeamSettings, type TeamSettings, writeTeamSettings } from "../../settings/team-settings/team-settings.repo.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "workspace">;

const nonEmpty = (value: unknown): value is string => typeof value === "string" && value.trim() !== "";

/** Spec 3 section 2.3 "Constraint on write", per field. */
const FIELD_CHECKS: Record<keyof TeamSettings, (value: unknown) => boolean> = {
  site_name: nonEmpty,
  site_logo_url: isValidHttpUrl,
  accent_color: (value) => value === "" || isValidCssColor(value),
  default_set_name: nonEmpty,
  allow_member_create_sets: (value) => typeof value === "boolean",
  default_timezone: isValidTimezone,
};

/** The provided 2.3 fields, each checked; unknown keys are dropped. Throws 400 on the first bad one. */
function validateTeamSettingsPatch(body: Record<string, unknown>): Partial<TeamSettings> {
  const patch: Record<string, unknown> = {};
  for (const key of Object.keys(DEFAULT_TEAM_SETTINGS) as (keyof TeamSettings)[]) {
    if (!(key in body) || body[key] === undefined) continue;
    const value = body[key];
    if (!FIELD_CHECKS[key](value)) throw invalidRequest(`${key} is not valid`);
    patch[key] = typeof value === "string" && (key === "site_name" || key === "default_set_name") ? value.trim() : value;
  }
  return patch as Partial<TeamSettings>;
}

/** Spec 3 section 4.2 PATCH: manage_settings, or owner / co-owner; answers the full object. */
export async function patchTeamSettings(ctx: Ctx, caller: MemberActor, body: Record<string, unknown>): Promise<TeamSettings> {
  if (!canManageSettings(caller, await permissionsOf(ctx, caller))) throw forbidden("manage_settings needed");
  const patch = validateTeamSettingsPatch(body);
  return withTx(ctx.db, async () => {
    const next = { ...(await readTeamSettings(ctx, caller.teamId)), ...patch };
    await writeTeamSettings(ctx, caller.teamId, next);
    return next;
  });
}
