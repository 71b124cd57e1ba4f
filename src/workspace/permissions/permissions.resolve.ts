import { eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { prepared } from "../../db/prepared.ts";
import type { AppContext } from "../../context/context.ts";
import { todoSets } from "../sets/sets.table.ts";
import { readTeamMatrix } from "../settings/team-settings.repo.ts";
import type { WorkspaceCaller } from "../signin/workspace-auth.ts";
import { effectivePermissions, type Matrix, type Permissions } from "./permissions.ts";

/** What the caller may do in their team, and in one set when `setId` is given (its overrides apply). */
const overridesQuery = (db: Db) => db.select({ p: todoSets.permissions }).from(todoSets).where(eq(todoSets.id, sql.placeholder("setId"))).prepare();

export function permissionsFor(ctx: Pick<AppContext, "db">, caller: Pick<WorkspaceCaller, "role" | "teamId">, setId?: string): Permissions {
  const overrides = setId ? ((prepared(ctx.db, overridesQuery).get({ setId })?.p as Matrix | null) ?? null) : null;
  return effectivePermissions(caller.role, readTeamMatrix(ctx, caller.teamId), overrides);
}
