import { eq } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import { todoSets } from "../sets/sets.table.ts";
import { readTeamMatrix } from "../settings/team-settings.repo.ts";
import type { WorkspaceCaller } from "../signin/workspace-auth.ts";
import { effectivePermissions, type Matrix, type Permissions } from "./permissions.ts";

/** What the caller may do in their team, and in one set when `setId` is given (its overrides apply). */
export function permissionsFor(ctx: Pick<AppContext, "db">, caller: WorkspaceCaller, setId?: string): Permissions {
  const overrides = setId ? ((ctx.db.select({ p: todoSets.permissions }).from(todoSets).where(eq(todoSets.id, setId)).get()?.p as Matrix | null) ?? null) : null;
  return effectivePermissions(caller.role, readTeamMatrix(ctx, caller.teamId), overrides);
}
