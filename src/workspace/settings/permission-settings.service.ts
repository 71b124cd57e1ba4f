import type { Matrix } from "../../contract/workspace.ts";
import { and, eq } from "drizzle-orm";
import type { AppContext } from "../../context/context.ts";
import { withTx } from "../../db/tx.ts";
import { forbidden } from "../../shared/errors.ts";
import { canManageSettings } from "../permissions/permissions.policy.ts";
import { WORKSPACE_ROLES, type WorkspaceRole } from "../../contract/workspace.ts";
import { effectivePermissions, type Permissions, validateMatrix } from "../permissions/permissions.ts";
import { permissionsOf } from "../permissions/permissions.resolve.ts";
import { todoSets } from "../storage/sets.table.ts";
import type { MemberActor } from "../permissions/actor.ts";
import { writeTeamMatrix } from "../../settings/team-settings/team-settings.repo.ts";
import { setNotFound } from "../storage/workspace.errors.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "workspace">;
export type FullMatrix = Record<WorkspaceRole, Permissions>;

/** ARCHITECTURE section 4: the team's matrix with every role and key filled from the defaults. */
export async function getTeamMatrix(ctx: Pick<AppContext, "db" | "workspace">, teamId: string): Promise<FullMatrix> {
  const matrix = await ctx.workspace.permissions.teamMatrix(teamId);
  return Object.fromEntries(WORKSPACE_ROLES.map((role) => [role, effectivePermissions(role, matrix)])) as FullMatrix;
}

// Team-level manage_settings decides: a set's own overrides must not grant the right to edit them.
async function assertMayManage(ctx: Ctx, caller: MemberActor): Promise<void> {
  if (!canManageSettings(caller, await permissionsOf(ctx, caller))) throw forbidden("manage_settings needed");
}

/** PUT replaces the team matrix; answers it filled. */
export async function putTeamMatrix(ctx: Ctx, caller: MemberActor, body: unknown): Promise<FullMatrix> {
  await assertMayManage(ctx, caller);
  const matrix = validateMatrix(body);
  // `{}` goes back to the role defaults.
  await writeTeamMatrix(ctx, caller.teamId, Object.keys(matrix).length === 0 ? null : matrix);
  return getTeamMatrix(ctx, caller.teamId);
}

// Ownership in the WHERE clause: a set of another team is the same 404 as a missing one.
async function findSetOverrides(ctx: Pick<AppContext, "db" | "workspace">, teamId: string, setId: string): Promise<Matrix | null> {
  const row = await ctx.db
    .select({ permissions: todoSets.permissions })
    .from(todoSets)
    .where(and(eq(todoSets.id, setId), eq(todoSets.teamId, teamId)))
    .get();
  if (!row) throw setNotFound();
  return (row.permissions as Matrix | null) ?? null;
}

/** A set's overrides only (`{}` when it has none). */
export async function getSetOverrides(ctx: Pick<AppContext, "db" | "workspace">, teamId: string, setId: string): Promise<Matrix> {
  return (await findSetOverrides(ctx, teamId, setId)) ?? {};
}

/** PUT replaces the set's overrides; `{}` clears them. */
export async function putSetOverrides(ctx: Ctx, caller: MemberActor, setId: string, body: unknown): Promise<Matrix> {
  await assertMayManage(ctx, caller);
  const matrix = validateMatrix(body);
  return withTx(ctx.db, async () => {
    await findSetOverrides(ctx, caller.teamId, setId);
    const stored = Object.keys(matrix).length === 0 ? null : (matrix as Record<string, Record<string, boolean>>);
    await ctx.db
      .update(todoSets)
      .set({ permissions: stored })
      .where(and(eq(todoSets.id, setId), eq(todoSets.teamId, caller.teamId)))
      .run();
    return matrix;
  });
}
