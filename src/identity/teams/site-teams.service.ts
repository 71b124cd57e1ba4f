import type { AppContext } from "../../context/context.ts";
import { listMyTeams } from "./teams.service.ts";
import { selectTeamsPage } from "./teams.repo.ts";

type Ctx = Pick<AppContext, "db" | "clock">;

/**
 * Every team on the instance (spec 1 section 2.3 rule 9, `site:team:read`), a page at a time, in
 * the shape of the caller's own list: `role` and `direct_role` are the administrator's own roles,
 * null on a team they hold none on. `q` matches the name.
 */
export async function listSiteTeams(ctx: Ctx, adminId: string, { q = "", limit = 50, offset = 0 }: { q?: string; limit?: number; offset?: number }) {
  const page = await selectTeamsPage(ctx, { q: q.trim(), limit: Math.min(Math.max(limit, 1), 200), offset: Math.max(offset, 0) });
  const own = new Map((await listMyTeams(ctx, adminId)).map((t) => [t.id, t]));
  const teams = page.rows.map((t) => ({
    id: t.id,
    name: t.name,
    parent_id: t.parentId,
    role: own.get(t.id)?.role ?? null,
    direct_role: own.get(t.id)?.direct_role ?? null,
  }));
  return { teams, total: page.total };
}
