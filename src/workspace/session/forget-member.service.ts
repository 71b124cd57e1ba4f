import { eq } from "drizzle-orm";
import type { AppContext } from "../../context/context.ts";
import { teamSettings, userSettings } from "../../settings/team-settings/team-and-user-settings.table.ts";
import { todoSets } from "../storage/sets.table.ts";
import { shareLinks } from "../storage/share-links.table.ts";
import { wsSessions } from "../storage/session.table.ts";
import { dueDigestsSent } from "../storage/notices.table.ts";
import { assignedExpand, memberCache } from "../storage/todos.table.ts";

/**
 * What the workspace forgets of an IdP account that was deleted: its sessions (they hold the
 * name, email and picture), its names in the member lists, its preferences, and its personal
 * space (`personal:<id>`: sets, their todos and comments, share links and settings). What the
 * person wrote in a team stays with the team, by id: with the names gone it reads as by a
 * deleted user, as do their assignments. Runs inside the deletion's transaction.
 */
export async function forgetDeletedMember(ctx: Pick<AppContext, "db" | "workspace">, userId: string): Promise<void> {
  const personal = `personal:${userId}`;
  await ctx.db.delete(wsSessions).where(eq(wsSessions.userId, userId)).run();
  await ctx.db.delete(memberCache).where(eq(memberCache.userId, userId)).run();
  await ctx.db.delete(assignedExpand).where(eq(assignedExpand.userId, userId)).run();
  await ctx.db.delete(userSettings).where(eq(userSettings.userId, userId)).run();
  await ctx.db.delete(dueDigestsSent).where(eq(dueDigestsSent.userId, userId)).run();
  const links = await ctx.db.delete(shareLinks).where(eq(shareLinks.teamId, personal)).returning({ id: shareLinks.id }).all();
  for (const link of links) ctx.workspace.svgImages.forgetLink(link.id);
  ctx.workspace.realtime.rightsChanged({ links: links.map((link) => link.id) });
  // Todos go with their set, comments and assignments with their todo (ON DELETE CASCADE).
  await ctx.db.delete(todoSets).where(eq(todoSets.teamId, personal)).run();
  await ctx.db.delete(teamSettings).where(eq(teamSettings.teamId, personal)).run();
}
