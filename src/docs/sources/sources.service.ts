import { existsSync, statSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { asc, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { prepared } from "../../db/prepared.ts";
import type { AppContext } from "../../context/context.ts";
import { randomToken } from "../../shared/crypto.ts";
import type { SourceInput } from "../../contract/docs-sources.ts";
import { guideReadOnly, invalidSource as invalid, slugTaken, sourceNotFound } from "./sources.errors.ts";
import { type DocsSourceRow, docsSources } from "./sources.table.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "secrets">;

const TOKEN_PURPOSE = "docs.source.token";
const SLUG = /^[a-z0-9][a-z0-9-]{0,39}$/;
const FULL_NAME = /^[A-Za-z0-9_.-]{1,100}\/[A-Za-z0-9_.-]{1,100}$/;
const BRANCH = /^(?!\/|.*\.\.)[A-Za-z0-9._/-]{1,200}$/;
const LOCALE = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})?$/;

export type { SourceInput };

const isFolder = (path: string) => existsSync(path) && statSync(path).isDirectory();

/** A docs root is a relative folder without `..`: "" (the repository's root) or like `docs` or `site/docs`. */
export function normalizeDocsRoot(root: string): string {
  const trimmed = root.trim().replace(/^\/+|\/+$/g, "");
  if (trimmed.split("/").some((part) => part === ".." || part === ".")) throw invalid("docs_root must be a folder inside the repository.");
  if (!/^[A-Za-z0-9._/ -]{0,200}$/.test(trimmed)) throw invalid("docs_root has characters a folder name here cannot have.");
  return trimmed;
}

/** The source as the admin API answers it: the token only as "set or not"; `hidden` only ever for the built-in guide. */
export function sourceView(row: DocsSourceRow, issuer: string, hidden = false) {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    kind: row.kind,
    full_name: row.fullName,
    branch: row.branch,
    docs_root: row.docsRoot,
    api_base: row.apiBase,
    token_set: row.tokenSealed !== null,
    local_path: row.localPath,
    locales: row.locales,
    default_locale: row.defaultLocale,
    url: `${issuer}/docs/${row.slug}`,
    created_at: row.createdAt,
    hidden,
  };
}

// Read on every page view: prepared once per connection.
const allSources = (db: Db) => db.select().from(docsSources).orderBy(asc(docsSources.createdAt)).prepare();
const sourceById = (db: Db) =>
  db
    .select()
    .from(docsSources)
    .where(eq(docsSources.id, sql.placeholder("value")))
    .prepare();
const sourceBySlug = (db: Db) =>
  db
    .select()
    .from(docsSources)
    .where(eq(docsSources.slug, sql.placeholder("value")))
    .prepare();

export function listSources(ctx: Pick<Ctx, "db">): Promise<DocsSourceRow[]> {
  return prepared(ctx.db, allSources).all();
}

export async function findSource(ctx: Pick<Ctx, "db">, by: { id?: string; slug?: string }): Promise<DocsSourceRow | null> {
  return (
    (await (by.id !== undefined ? prepared(ctx.db, sourceById).get({ value: by.id }) : prepared(ctx.db, sourceBySlug).get({ value: by.slug ?? "" }))) ?? null
  );
}

/** The hosting-service source a push names (full_name lowercased); local folders never match. */
export function sourcesForRepository(ctx: Pick<Ctx, "db">, fullName: string): Promise<DocsSourceRow[]> {
  return ctx.db.select().from(docsSources).where(eq(docsSources.fullName, fullName.toLowerCase())).all();
}

export function sourceToken(ctx: Pick<Ctx, "secrets">, row: DocsSourceRow): string | null {
  return row.tokenSealed === null ? null : ctx.secrets.open(row.tokenSealed, TOKEN_PURPOSE);
}

/** Checks a whole source (after a patch is applied) and answers the columns to write. */
function checked(ctx: Ctx, base: Partial<DocsSourceRow>, input: SourceInput) {
  const slug = (input.slug ?? base.slug ?? "").trim().toLowerCase();
  if (!SLUG.test(slug)) throw invalid("slug is 1 to 40 characters a-z 0-9 -, starting with a letter or digit.");
  const name = (input.name ?? base.name ?? "").trim();
  if (name === "" || name.length > 100) throw invalid("name is 1 to 100 characters.");
  const kind = input.kind ?? base.kind;
  if (kind !== "github" && kind !== "local") throw invalid('kind is "github" or "local".');
  const locales = input.locales ?? base.locales ?? [];
  if (!Array.isArray(locales) || locales.length > 20 || locales.some((l) => typeof l !== "string" || !LOCALE.test(l)))
    throw invalid("locales are up to 20 codes like en, fr or pt-BR.");
  const defaultLocale = input.default_locale ?? base.defaultLocale ?? locales[0] ?? "en";
  if (!LOCALE.test(defaultLocale) || (locales.length > 0 && !locales.includes(defaultLocale))) throw invalid("default_locale must be one of the locales.");
  const docsRoot = normalizeDocsRoot(input.docs_root ?? base.docsRoot ?? "docs");
  if (input.hidden !== undefined) throw invalid("hidden applies only to the built-in guide: remove a source you no longer want.");
  const common = { slug, name, kind, locales, defaultLocale, docsRoot };
  if (kind === "local") {
    const localPath = (input.local_path ?? base.localPath ?? "").trim();
    if (!isAbsolute(localPath) || !isFolder(localPath)) throw invalid("local_path must be an absolute path of a folder on this machine.");
    // A docs folder that is not there would make a site of "page not found" only (issue 42).
    if (!isFolder(join(localPath, docsRoot)))
      throw invalid(
        `docs_root: ${localPath} has no folder "${docsRoot}". Set the docs folder to where the Markdown files are inside it, or leave it empty for the folder itself.`,
      );
    return { ...common, localPath, fullName: null, tokenSealed: null };
  }
  const fullName = (input.full_name ?? base.fullName ?? "").trim().toLowerCase();
  if (!FULL_NAME.test(fullName)) throw invalid("full_name is owner/repository.");
  const branch = (input.branch ?? base.branch ?? "main").trim();
  if (!BRANCH.test(branch)) throw invalid("branch is not a valid branch name.");
  const apiBase = (input.api_base ?? base.apiBase ?? "https://api.github.com").trim().replace(/\/+$/, "");
  let api: URL | null = null;
  try {
    api = new URL(apiBase);
  } catch {}
  if (api?.protocol !== "https:" || api.username || api.password || api.search || api.hash) throw invalid("api_base must be an https URL.");
  const tokenSealed =
    input.token === undefined ? (base.tokenSealed ?? null) : input.token.trim() === "" ? null : ctx.secrets.seal(input.token.trim(), TOKEN_PURPOSE);
  return { ...common, fullName, branch, apiBase, tokenSealed, localPath: null };
}

async function uniqueSlug(ctx: Pick<Ctx, "db">, slug: string, exceptId: string | null) {
  const other = await findSource(ctx, { slug });
  if (other && other.id !== exceptId) throw slugTaken(slug);
}

export async function createSource(ctx: Ctx, input: SourceInput): Promise<DocsSourceRow> {
  const values = checked(ctx, {}, input);
  await uniqueSlug(ctx, values.slug, null);
  const row = { id: randomToken(12), createdAt: ctx.clock.now(), branch: "main", apiBase: "https://api.github.com", ...values };
  await ctx.db.insert(docsSources).values(row).run();
  return (await findSource(ctx, { id: row.id })) as DocsSourceRow;
}

export async function updateSource(ctx: Ctx, id: string, input: SourceInput): Promise<DocsSourceRow> {
  const row = await findSource(ctx, { id });
  if (!row) throw sourceNotFound();
  if (row.kind === "builtin") throw guideReadOnly();
  const values = checked(ctx, row, input);
  await uniqueSlug(ctx, values.slug, id);
  await ctx.db.update(docsSources).set(values).where(eq(docsSources.id, id)).run();
  return (await findSource(ctx, { id })) as DocsSourceRow;
}

export async function deleteSource(ctx: Pick<Ctx, "db">, id: string): Promise<void> {
  if ((await findSource(ctx, { id }))?.kind === "builtin") throw guideReadOnly();
  if ((await ctx.db.delete(docsSources).where(eq(docsSources.id, id)).returning({ id: docsSources.id }).all()).length === 0) throw sourceNotFound();
}
