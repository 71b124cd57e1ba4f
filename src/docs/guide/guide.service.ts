import type { AppContext } from "../../context/context.ts";
import { readSetting, writeSetting } from "../../db/settings.repo.ts";
import type { SourceInput } from "../../contract/docs-sources.ts";
import { dropSource } from "../cache/docs-cache.ts";
import { dropSearch } from "../search/search.service.ts";
import { guideReadOnly } from "../sources/sources.errors.ts";
import { findSource, listSources } from "../sources/sources.service.ts";
import { type DocsSourceRow, docsSources } from "../sources/sources.table.ts";
import { GUIDE, guideFiles } from "../repository/guide-files.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "docs">;

/** Whether an admin hid the guide, and which version of it the cache holds pages of. */
type Stored = { hidden: boolean; version: string | null };
const KEY = "docs_guide";

const stored = async (ctx: Pick<Ctx, "db">): Promise<Stored> => ({ hidden: false, version: null, ...(await readSetting<Partial<Stored>>(ctx.db, KEY)) });

export const isGuide = (source: Pick<DocsSourceRow, "kind">) => source.kind === "builtin";
export const guideHidden = async (ctx: Pick<Ctx, "db">) => (await stored(ctx)).hidden;

/**
 * At boot: the guide's source row, made once (first on the site: created at 0; its slug the
 * first free one), and when this executable carries another version of the guide than the one
 * cached, its cached pages and search index dropped. Reads only, once both are in place.
 */
export async function installGuide(ctx: Ctx): Promise<void> {
  if (!(await findSource(ctx, { id: GUIDE.id }))) {
    const taken = new Set((await listSources(ctx)).map((s) => s.slug));
    const slug = [...GUIDE.slugs, ...Array.from({ length: 8 }, (_, i) => `${GUIDE.slugs[0]}-${i + 2}`)].find((s) => !taken.has(s)) ?? GUIDE.id;
    const row = { id: GUIDE.id, slug, name: GUIDE.name, kind: "builtin" as const, docsRoot: "", locales: [], defaultLocale: "en", createdAt: 0 };
    // Two workers booting at once: one insert wins, the other changes nothing.
    await ctx.db.insert(docsSources).values(row).onConflictDoNothing().run();
  }
  const { version } = guideFiles();
  const now = await stored(ctx);
  if (now.version === version) return;
  await dropSource(ctx, GUIDE.id);
  await dropSearch(ctx, GUIDE.id);
  await writeSetting(ctx.db, ctx.clock, KEY, { ...now, version });
}

/** `PATCH /api/docs/sources/<guide>`: only `hidden` may change; anything else is refused and nothing changes. */
export async function updateGuide(ctx: Ctx, input: SourceInput): Promise<DocsSourceRow> {
  const { hidden, ...rest } = input;
  if (Object.values(rest).some((v) => v !== undefined)) throw guideReadOnly();
  if (hidden !== undefined) await writeSetting(ctx.db, ctx.clock, KEY, { ...(await stored(ctx)), hidden });
  return (await findSource(ctx, { id: GUIDE.id })) as DocsSourceRow;
}

/** The sources the site shows, the guide first unless an admin hid it. */
export async function siteSources(ctx: Pick<Ctx, "db">): Promise<DocsSourceRow[]> {
  const hidden = await guideHidden(ctx);
  return (await listSources(ctx)).filter((s) => !(hidden && isGuide(s)));
}

/** The source at `/docs/<slug>/` on the site: a hidden guide is not there. */
export async function siteSource(ctx: Pick<Ctx, "db">, slug: string): Promise<DocsSourceRow | null> {
  const source = await findSource(ctx, { slug });
  return source && isGuide(source) && (await guideHidden(ctx)) ? null : source;
}
