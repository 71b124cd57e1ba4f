import { eq } from "drizzle-orm";
import type { AppContext } from "../../context/context.ts";
import type { Matrix } from "../../contract/workspace.ts";
import { DEFAULT_TEAM_SETTINGS } from "../../contract/team-settings.ts";
import { teamSettings } from "./team-and-user-settings.table.ts";

/** Spec 3 section 2.3: every field with its default (shared with the SPA). */
export { DEFAULT_TEAM_SETTINGS };
export type TeamSettings = typeof DEFAULT_TEAM_SETTINGS;

/** A team's settings, defaults filled in (a team that never saved any has all defaults). */
export async function readTeamSettings(ctx: Pick<AppContext, "db">, teamId: string): Promise<TeamSettings> {
  const row = await ctx.db.select({ settings: teamSettings.settings }).from(teamSettings).where(eq(teamSettings.teamId, teamId)).get();
  return { ...DEFAULT_TEAM_SETTINGS, ...(row?.settings as Partial<TeamSettings> | undefined) };
}

/** Stores a team's settings, keeping its permission matrix. */
export async function writeTeamSettings(ctx: Pick<AppContext, "db" | "clock">, teamId: string, settings: TeamSettings): Promise<void> {
  const updatedAt = ctx.clock.now();
  await ctx.db
    .insert(teamSettings)
    .values({ teamId, settings, permissions: null, updatedAt })
    .onConflictDoUpdate({ target: teamSettings.teamId, set: { settings, updatedAt } })
    .run();
}

/** Stores a team's permission matrix (null: the role defaults), keeping its settings. */
export async function writeTeamMatrix(ctx: Pick<AppContext, "db" | "clock">, teamId: string, matrix: Matrix | null): Promise<void> {
  const updatedAt = ctx.clock.now();
  await ctx.db
    .insert(teamSettings)
    .values({ teamId, settings: {}, permissions: matrix, updatedAt })
    .onConflictDoUpdate({ target: teamSettings.teamId, set: { permissions: matrix, updatedAt } })
    .run();
}
