import { orphanSetLinks } from "../storage/share-links.repo.ts";
import { and, eq, inArray } from "drizzle-orm";
import type { AppContext } from "../../context/context.ts";
import { withTeamTx } from "../storage/team-tx.ts";
import { invalidRequest } from "../../shared/errors.ts";
import { isValidHhMm, isValidTimezone } from "../../settings/validation/settings-fields.ts";
import { canManageSets, canPatchSet } from "../permissions/permissions.policy.ts";
import { permissionsOf } from "../permissions/permissions.resolve.ts";
import { DEFAULT_TEAM_SETTINGS, readTeamSettings } from "../../settings/team-settings/team-settings.repo.ts";
import type { MemberActor } from "../permissions/actor.ts";
import { assertFreeName, findSetOrThrow, listSetRows, nextSetOrder, type SetRow, toSetJson } from "../storage/sets.repo.ts";
import { todoSets } from "../storage/sets.table.ts";
import { forbiddenSetDelete, noItems, noPermissionToManageSets, noUpdates, setNotFound } from "../storage/workspace.errors.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "bus" | "workspace">;
export type SetPatch = { name?: string; autoRenew?: boolean; renewTime?: string; timezone?: string; splitCompleted?: boolean };

async function insertSet(ctx: Ctx, caller: MemberActor, name: string, extra: Partial<SetRow> = {}): Promise<SetRow> {
  const row = await ctx.db
    .insert(todoSets)
    .values({
      id: crypto.randomUUID(),
      teamId: caller.teamId,
      userId: caller.userId,
      name,
      sortOrder: await nextSetOrder(ctx, caller.teamId),
      createdAt: ctx.clock.now(),
      ...extra,
    })
    .returning()
    .get();
  return row;
}

/** Spec 2 section 4.1 GET sets: counts per set; the default set is made when the team has none. */
export async function listSets(ctx: Ctx, caller: MemberActor) {
  const rows = await withTeamTx(ctx.db, caller.teamId, async () => {
    const existing = await listSetRows(ctx, caller.teamId);
    if (existing.length > 0) return existing;
    const name = String((await readTeamSettings(ctx, caller.teamId)).default_set_name ?? "").trim() || DEFAULT_TEAM_SETTINGS.default_set_name;
    return [await insertSet(ctx, caller, name)];
  });
  // Spec 2 section 2.1 counts, kept per set by triggers (migration 0037): nothing is counted here.
  const sets = rows.map((row) => ({ ...toSetJson(row), total: row.topTotal, completed: row.topCompleted, pending: row.topTotal - row.topCompleted }));
  return { sets, role: caller.role };
}

/** Spec 2 section 4.1 POST sets: manage_sets, or any member when `allow_member_create_sets`. */
export async function createSet(ctx: Ctx, caller: MemberActor, name: string | undefined) {
  const allowMemberCreateSets = (await readTeamSettings(ctx, caller.teamId)).allow_member_create_sets === true;
  if (!canManageSets(caller, await permissionsOf(ctx, caller), { allowMemberCreateSets, action: "create" })) throw noPermissionToManageSets();
  const set = await withTeamTx(ctx.db, caller.teamId, async () => toSetJson(await insertSet(ctx, caller, await assertFreeName(ctx, caller.teamId, name))));
  ctx.bus.publish({ type: "set:created", teamId: caller.teamId, setId: set.id, data: set });
  return set;
}

export async function patchSet(ctx: Ctx, caller: MemberActor, setId: string, patch: SetPatch): Promise<void> {
  const set = await findSetOrThrow(ctx, caller.teamId, setId);
  if (!canPatchSet(caller, await permissionsOf(ctx, caller, setId), { creatorId: set.userId })) throw noPermissionToManageSets();
  const changes: Partial<SetRow> = {};
  if (patch.autoRenew !== undefined) changes.autoRenew = patch.autoRenew;
  if (patch.splitCompleted !== undefined) changes.splitCompleted = patch.splitCompleted;
  if (patch.renewTime !== undefined) {
    if (!isValidHhMm(patch.renewTime)) throw invalidRequest("renewTime must be HH:MM");
    changes.renewTime = patch.renewTime;
  }
  if (patch.timezone !== undefined) {
    // Spec 2 section 2.1: empty falls back to the team's default_timezone.
    if (patch.timezone !== "" && !isValidTimezone(patch.timezone)) throw invalidRequest("timezone must be an IANA name or empty");
    changes.timezone = patch.timezone;
  }
  await withTeamTx(ctx.db, caller.teamId, async () => {
    if (patch.name !== undefined) changes.name = await assertFreeName(ctx, caller.teamId, patch.name, setId);
    if (Object.keys(changes).length === 0) throw noUpdates();
    await ctx.db.update(todoSets).set(changes).where(eq(todoSets.id, setId)).run();
    // Read in the transaction: the event leaves after the commit, in commit order.
    const updated = await ctx.db.select().from(todoSets).where(eq(todoSets.id, setId)).get();
    if (updated) ctx.bus.publish({ type: "set:updated", teamId: caller.teamId, setId, data: toSetJson(updated) });
  });
}

/** Spec 2 section 3: the set goes with its todos, sub-todos and comments (foreign-key cascades). */
export async function deleteSet(ctx: Ctx, caller: MemberActor, setId: string): Promise<void> {
  const set = await findSetOrThrow(ctx, caller.teamId, setId);
  if (!canPatchSet(caller, await permissionsOf(ctx, caller, setId), { creatorId: set.userId })) throw forbiddenSetDelete();
  const deleted = await withTeamTx(ctx.db, caller.teamId, async () => {
    await orphanSetLinks(ctx, caller.teamId, setId);
    return ctx.db
      .delete(todoSets)
      .where(and(eq(todoSets.id, setId), eq(todoSets.teamId, caller.teamId)))
      .returning({ id: todoSets.id })
      .all();
  });
  if (deleted.length > 0) ctx.bus.publish({ type: "set:deleted", teamId: caller.teamId, setId, data: { id: setId } });
}

/** Spec 2 section 4.1 reorder: every id must be a set of this team, or nothing changes. */
export async function reorderSets(ctx: Ctx, caller: MemberActor, items: { id: string; sortOrder: number }[] | undefined): Promise<void> {
  if (!canManageSets(caller, await permissionsOf(ctx, caller), { allowMemberCreateSets: false, action: "other" })) throw noPermissionToManageSets();
  if (!items || items.length === 0) throw noItems();
  const ids = [...new Set(items.map((item) => item.id))];
  if (ids.length !== items.length) throw invalidRequest("an id is listed twice");
  await withTeamTx(ctx.db, caller.teamId, async () => {
    const found = await ctx.db
      .select({ id: todoSets.id })
      .from(todoSets)
      .where(and(eq(todoSets.teamId, caller.teamId), inArray(todoSets.id, ids)))
      .all();
    if (found.length !== ids.length) throw setNotFound();
    for (const item of items) await ctx.db.update(todoSets).set({ sortOrder: item.sortOrder }).where(eq(todoSets.id, item.id)).run();
  });
  ctx.bus.publish({ type: "set:reordered", teamId: caller.teamId, setId: null, data: { items } });
}
