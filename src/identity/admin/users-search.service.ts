import type { AppContext } from "../../context/context.ts";
import { countAllUsers, countUserMatches, searchUserRows } from "../users/users-search.repo.ts";
import { asc } from "drizzle-orm";
import { users } from "../users/users.table.ts";
import { adminUserView } from "./users-admin.service.ts";

type Ctx = Pick<AppContext, "db">;

/**
 * Admin → Users and the site API's user list: every user by username, or those matching `q` by
 * prefix (users-search.repo.ts), best match first. `total` counts matches up to 1,000;
 * `total_capped` says more match (the list then reads "1,000+": type more to narrow it).
 */
export async function searchUsers(ctx: Ctx, { q = "", limit = 50, offset = 0 }: { q?: string; limit?: number; offset?: number }) {
  const size = Math.min(Math.max(limit, 1), 200);
  const from = Math.max(offset, 0);
  const text = q.trim();
  if (text === "") {
    const rows = await ctx.db.select().from(users).orderBy(asc(users.username)).limit(size).offset(from).all();
    return { users: rows.map(adminUserView), total: await countAllUsers(ctx.db), total_capped: false };
  }
  const { total, capped } = await countUserMatches(ctx.db, text);
  return { users: (await searchUserRows(ctx.db, text, size, from)).map(adminUserView), total, total_capped: capped };
}
