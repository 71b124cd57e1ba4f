import { eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import type { AppContext } from "../../context/context.ts";
import { todoSets } from "../sets/sets.table.ts";
import { teamSettings } from "../settings/workspace-settings.table.ts";
import type { WorkspaceCaller } from "../signin/workspace-auth.ts";
import { effectivePermissions, type Matrix, type Permissions } from "./permissions.ts";

/** The permission reads of every request and every realtime push: prepared once per app. */
export function createPermissionsRepo({ db }: { db: Db }) {
  const team = db.select({ p: teamSettings.permissions }).from(teamSettings).where(eq(teamSettings.teamId, sql.placeholder("teamId"))).prepare();
  const set = db.select({ p: todoSets.permissions }).from(todoSets).where(eq(todoSets.id, sql.placeholder("setId"))).prepare();
  return {
    /** The team's matrix, or null for the role defaults. */
    teamMatrix: (teamId: string) => (team.get({ teamId })?.p as Matrix | null) ?? null,
    /** A set's overrides, or null. */
    setOverrides: (setId: string) => (set.get({ setId })?.p as Matrix | null) ?? null,
  };
}

export type PermissionsRepo = ReturnType<typeof createPermissionsRepo>;

/** What the caller may do in their team, and in one set when `setId` is given (its overrides apply). */
export function permissionsFor(ctx: Pick<AppContext, "workspace">, caller: Pick<WorkspaceCaller, "role" | "teamId">, setId?: string): Permissions {
  const { permissions } = ctx.workspace;
  return effectivePermissions(caller.role, permissions.teamMatrix(caller.teamId), setId ? permissions.setOverrides(setId) : null);
}
