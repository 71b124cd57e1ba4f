import { type Matrix, PERMISSION_KEYS, type PermissionKey, type ShareCapability, type WorkspaceRole } from "../../contract/workspace.ts";
import { eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import type { AppContext } from "../../context/context.ts";
import { todoSets } from "../storage/sets.table.ts";
import { teamSettings } from "../../settings/team-settings/team-and-user-settings.table.ts";
import type { ShareLinkActor, WorkspaceActor } from "./actor.ts";
import { effectivePermissions, type Permissions } from "./permissions.ts";
import { onFirstUse } from "../../shared/on-first-use.ts";

/** The permission reads of every request and every realtime push: prepared once per app. */
export function createPermissionsRepo({ db }: { db: Db }) {
  const team = onFirstUse(() =>
    db
      .select({ p: teamSettings.permissions })
      .from(teamSettings)
      .where(eq(teamSettings.teamId, sql.placeholder("teamId")))
      .prepare(),
  );
  const set = onFirstUse(() =>
    db
      .select({ p: todoSets.permissions })
      .from(todoSets)
      .where(eq(todoSets.id, sql.placeholder("setId")))
      .prepare(),
  );
  return {
    /** The team's matrix, or null for the role defaults. */
    teamMatrix: async (teamId: string) => ((await team().get({ teamId }))?.p as Matrix | null) ?? null,
    /** A set's overrides, or null. */
    setOverrides: async (setId: string) => ((await set().get({ setId }))?.p as Matrix | null) ?? null,
  };
}

export type PermissionsRepo = ReturnType<typeof createPermissionsRepo>;

// Spec 2 section 2.4: what each capability of a link lets its visitors do, as permission keys.
// A link creates sub-todos as it creates todos; it owns nothing, so no "*_own_*" key applies.
const LINK_GRANTS: Readonly<Record<ShareCapability, readonly PermissionKey[]>> = {
  canView: ["view_todos"],
  canCreate: ["create_todos", "add_subtodos"],
  canEdit: ["edit_any_todo"],
  canComplete: ["complete_any_todo"],
  canDelete: ["delete_any_todo"],
  canReorder: ["reorder_todos"],
  canComment: ["comment"],
};

function linkPermissions(actor: ShareLinkActor, setId: string): Permissions {
  const perms = Object.fromEntries(PERMISSION_KEYS.map((key) => [key, false])) as Record<PermissionKey, boolean>;
  // A link reaches its own set only.
  if (setId !== actor.setId) return perms;
  for (const [capability, keys] of Object.entries(LINK_GRANTS) as [ShareCapability, readonly PermissionKey[]][])
    if (actor.capabilities[capability]) for (const key of keys) perms[key] = true;
  return perms;
}

/**
 * What the actor may do in their team, and in one set when `setId` is given: a member's role
 * through the team matrix and the set's overrides, a link's capabilities in its own set.
 */
export async function permissionsOf(ctx: Pick<AppContext, "workspace">, actor: WorkspaceActor, setId?: string): Promise<Permissions> {
  if (actor.kind === "share_link") return linkPermissions(actor, setId ?? actor.setId);
  return (await rolePermissions(ctx, actor.teamId, setId))(actor.role);
}

/**
 * What each role may do in the team, and in one set when `setId` is given: read once, then asked
 * per role without another read (a realtime fan-out to many members).
 */
export async function rolePermissions(ctx: Pick<AppContext, "workspace">, teamId: string, setId?: string): Promise<(role: WorkspaceRole) => Permissions> {
  const { permissions } = ctx.workspace;
  const matrix = await permissions.teamMatrix(teamId);
  const overrides = setId ? await permissions.setOverrides(setId) : null;
  return (role) => effectivePermissions(role, matrix, overrides);
}
