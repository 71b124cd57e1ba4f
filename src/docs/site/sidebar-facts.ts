import type { AppContext } from "../../context/context.ts";
import { drop, entriesOf, storeEntries } from "../cache/docs-cache.ts";
import { renderer } from "../render/renderer.ts";
import { isCategory, type Repository, RepositoryUnavailable, type TreeEntry } from "../repository/repository.ts";
import type { DocsSourceRow } from "../sources/sources.table.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "config" | "log">;

/**
 * What the sidebar needs of one file, kept per file with the version of the text it was read
 * from: a page's label (`sidebar_label`, `title` or its first heading; null: from its name), its
 * `sidebar_position` and whether it is left out (`draft`, `sidebar_exclude`); a folder's
 * `_category_.json` label and position.
 */
export type FileFacts = { v: string; label: string | null; position: number | null; hidden: boolean };

/** Files read from the hosting service at once. */
const READS_AT_ONCE = 8;

const numberOr = (value: unknown) => (typeof value === "number" && Number.isFinite(value) ? value : null);
const textOr = (value: unknown) => (typeof value === "string" && value.trim() !== "" ? value.trim() : null);

async function factsOf(path: string, text: string, version: string): Promise<FileFacts> {
  if (isCategory(path)) {
    try {
      const meta = JSON.parse(text) as { label?: unknown; position?: unknown };
      return { v: version, label: textOr(meta?.label), position: numberOr(meta?.position), hidden: false };
    } catch {
      // A malformed _category_.json leaves the folder's defaults.
      return { v: version, label: null, position: null, hidden: false };
    }
  }
  const { parseFrontmatter } = await renderer();
  const { data, body } = parseFrontmatter(text);
  const heading = /^#\s+(.+)$/m.exec(body)?.[1]?.trim() ?? null;
  return {
    v: version,
    label: textOr(data.sidebar_label) ?? textOr(data.title) ?? heading,
    position: numberOr(data.sidebar_position),
    hidden: data.draft === true || data.sidebar_exclude === true,
  };
}

/** A file that could not be read: left out of the sidebar this time. */
const UNREAD: FileFacts = { v: "", label: null, position: null, hidden: true };

/**
 * The facts of `wanted` (repository paths of `tree`): the kept ones whose version is the tree's,
 * and only the others read (a push that changed one page reads that page). Facts of files no
 * longer in the tree are dropped. `complete` is false when a file could not be read (it is left
 * out, and the sidebar should not be kept).
 */
export async function sidebarFacts(
  ctx: Ctx,
  source: DocsSourceRow,
  repo: Repository,
  tree: TreeEntry[],
  wanted: string[],
): Promise<{ facts: Map<string, FileFacts>; complete: boolean }> {
  const kept = new Map([...(await entriesOf(ctx, source.id, "facts"))].map(([path, json]) => [path, JSON.parse(json) as FileFacts]));
  const versions = new Map(tree.map((e) => [e.path, e.version]));
  const facts = new Map<string, FileFacts>();
  const toRead: string[] = [];
  for (const path of wanted) {
    const known = kept.get(path);
    const version = versions.get(path) ?? null;
    if (known && version !== null && known.v === version) facts.set(path, known);
    else toRead.push(path);
  }
  const fresh: [string, string][] = [];
  let complete = true;
  const unreadable = (e: unknown, path: string) => {
    if (!(e instanceof RepositoryUnavailable)) throw e;
    ctx.log.warn("docs: a file of the sidebar could not be read", { source: source.slug, path, detail: e.detail });
    complete = false;
    return null;
  };
  for (let i = 0; i < toRead.length; i += READS_AT_ONCE) {
    const batch = toRead.slice(i, i + READS_AT_ONCE);
    const texts = await Promise.all(batch.map((path) => repo.read(path).catch((e) => unreadable(e, path))));
    for (const [j, path] of batch.entries()) {
      const read = texts[j];
      if (!read) {
        facts.set(path, UNREAD);
        continue;
      }
      const { text, version } = read;
      const known = kept.get(path);
      // The kept facts are of this very text (the tree is ahead of the cached text, or names no version): nothing new.
      if (known?.v === version) {
        facts.set(path, known);
        continue;
      }
      const made = await factsOf(path, text, version);
      facts.set(path, made);
      fresh.push([path, JSON.stringify(made)]);
    }
  }
  const gone = [...kept.keys()].filter((path) => !versions.has(path));
  try {
    if (fresh.length > 0) await storeEntries(ctx, source.id, "facts", "", fresh);
    await drop(ctx, source.id, ["facts"], gone);
  } catch (e) {
    // The source was removed meanwhile (its rows cascade): the sidebar is answered, nothing kept.
    ctx.log.warn("docs: sidebar facts not kept", { source: source.slug, error: String(e) });
  }
  return { facts, complete };
}
