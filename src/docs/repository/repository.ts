import { lstatSync, readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import type { AppContext } from "../../context/context.ts";
import { type Fetched, OutboundRefused, safeFetch } from "../../shared/safe-fetch.ts";
import { type Loaded, revalidated } from "../cache/docs-cache.ts";
import type { DocsSourceRow } from "../sources/sources.table.ts";
import { sourceToken } from "../sources/sources.service.ts";
import { bytesVersion, gitBlobSha, statVersion } from "./file-versions.ts";
import { guideFiles } from "./guide-files.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "config" | "secrets" | "outbound" | "log" | "docs">;

/** The repository could not be read (not found, refused, unreachable): the page says so; never a 5xx. */
export class RepositoryUnavailable extends Error {
  constructor(readonly detail: string) {
    super("the repository could not be read");
    this.name = "RepositoryUnavailable";
  }
}

export type LastUpdated = { date: string; author: string } | null;
export type RepoFile = { bytes: Uint8Array; type: string };
/** A file under the docs root and its version (file-versions.ts): null when the hosting service does not say. */
export type TreeEntry = { path: string; version: string | null };
/** A file's text and the version of that very text: older than the tree's while the cached text has not caught up. */
export type VersionedText = { text: string; version: string };

/** What the docs site reads from a source; repository paths throughout (`docs/guide/setup.md`). */
export type Repository = {
  /** Every file under the docs root, with its version. */
  tree(): Promise<TreeEntry[]>;
  text(path: string): Promise<string>;
  read(path: string): Promise<VersionedText>;
  file(path: string): Promise<RepoFile>;
  lastUpdated(path: string): Promise<LastUpdated>;
};

const MEDIA: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  avif: "image/avif",
  svg: "image/svg+xml",
  ico: "image/x-icon",
};
/** Only Markdown and pictures are ever read from a source: nothing else of a repository or folder is served. */
export const isMarkdown = (path: string) => /\.mdx?$/i.test(path);
export const mediaType = (path: string): string | null => MEDIA[path.slice(path.lastIndexOf(".") + 1).toLowerCase()] ?? null;
/** Docusaurus's folder metadata (label, position) for the sidebar. */
export const isCategory = (path: string) => path.endsWith("/_category_.json") || path === "_category_.json";
const readable = (path: string) => isMarkdown(path) || mediaType(path) !== null || isCategory(path);

const MAX_TREE_BYTES = 8 * 1024 * 1024;
const MAX_FILE_BYTES = 5 * 1024 * 1024;

export const underRoot = (root: string, path: string) => root === "" || path.startsWith(`${root}/`);

/**
 * A repository path under the docs root, segment by segment: no `.`, `..`, empty or backslashed
 * segment (URL normalization would otherwise walk out of the root, or of the repository, token
 * and all), and the root's segments before the rest. The one matcher of the reader and the webhook.
 */
export const insideRoot = (root: string, path: string) =>
  !path.split("/").some((s) => s === "" || s === "." || s === ".." || s.includes("\\")) && underRoot(root, path);

/** A path a reader may have asked for, checked before it reaches the hosting service or the disk: a Markdown file, picture or folder metadata inside the docs root. */
function allowed(source: Pick<DocsSourceRow, "docsRoot">, path: string): string {
  if (!insideRoot(source.docsRoot, path) || !readable(path)) throw new RepositoryUnavailable(`${path} is not a file of the docs`);
  return path;
}

/** The hosting service's answer as JSON; anything else is an unreadable repository, not a crash. */
function jsonOf<T>(body: string, what: string): T | null {
  try {
    return JSON.parse(body) as T;
  } catch {
    throw new RepositoryUnavailable(`the ${what} answer is not JSON`);
  }
}

/** A repository of a GitHub-compatible hosting service, through its REST API and the outbound guard; cached per spec 3 section 8. */
function hostedRepository(ctx: Ctx, source: DocsSourceRow): Repository {
  const token = sourceToken(ctx, source);
  const base = `${source.apiBase}/repos/${source.fullName}`;
  // With the ETag of what is cached, the hosting service may answer 304: "unchanged", at no rate-limit cost.
  const call = async (path: string, accept: string, etag: string | null, maxBytes = MAX_FILE_BYTES) => {
    let res: Awaited<ReturnType<typeof safeFetch>>;
    try {
      res = await safeFetch(
        `${base}${path}`,
        {
          headers: {
            accept,
            "user-agent": "Cairn-docs",
            "x-github-api-version": "2022-11-28",
            ...(token ? { authorization: `Bearer ${token}` } : {}),
            ...(etag ? { "if-none-match": etag } : {}),
          },
        },
        ctx.outbound,
        { maxBytes },
      );
    } catch (e) {
      throw new RepositoryUnavailable(e instanceof OutboundRefused ? e.detail : String(e));
    }
    if (res.status === 304 && etag) return "unchanged" as const;
    if (res.status !== 200) throw new RepositoryUnavailable(`${base}${path} answered ${res.status}`);
    return res;
  };
  /** A fresh value made from a 200 answer, with its ETag; "unchanged" passes through. */
  const loaded = (res: Awaited<ReturnType<typeof call>>, make: (res: Fetched) => string): Loaded =>
    res === "unchanged" ? res : { value: make(res), etag: res.headers.get("etag") };
  const ref = encodeURIComponent(source.branch);
  const contents = (path: string) => `/contents/${allowed(source, path).split("/").map(encodeURIComponent).join("/")}?ref=${ref}`;
  const key = (kind: "raw" | "meta" | "tree" | "file", path = "") => ({ sourceId: source.id, kind, path });
  const text = (path: string) =>
    revalidated(ctx, key("raw", path), async (etag) => loaded(await call(contents(path), "application/vnd.github.raw", etag), (res) => res.body));
  return {
    async tree() {
      // Kept as [path, blob sha] pairs; an entry kept as a bare path (before versions) has none.
      const json = await revalidated(ctx, key("tree"), async (etag) =>
        loaded(await call(`/git/trees/${ref}?recursive=1`, "application/vnd.github+json", etag, MAX_TREE_BYTES), (res) => {
          const tree = jsonOf<{ tree?: unknown }>(res.body, "tree")?.tree;
          if (!Array.isArray(tree)) throw new RepositoryUnavailable("the tree answer has no tree");
          const blobs = (tree as { path?: unknown; type?: unknown; sha?: unknown }[]).filter(
            (e) => e?.type === "blob" && typeof e.path === "string" && underRoot(source.docsRoot, e.path) && readable(e.path),
          );
          return JSON.stringify(blobs.map((e) => [e.path, typeof e.sha === "string" ? e.sha : null]));
        }),
      );
      return (JSON.parse(json) as (string | [string, string | null])[]).map((e) =>
        typeof e === "string" ? { path: e, version: null } : { path: e[0], version: e[1] },
      );
    },
    text,
    read: async (path) => {
      const body = await text(path);
      return { text: body, version: gitBlobSha(body) };
    },
    async file(path) {
      const type = mediaType(path);
      if (type === null) throw new RepositoryUnavailable(`${path} is not a picture`);
      const b64 = await revalidated(ctx, key("file", path), async (etag) =>
        loaded(await call(contents(path), "application/vnd.github.raw", etag), (res) => Buffer.from(res.bytes).toString("base64")),
      );
      return { bytes: new Uint8Array(Buffer.from(b64, "base64")), type };
    },
    async lastUpdated(path) {
      const json = await revalidated(ctx, key("meta", path), async (etag) =>
        loaded(await call(`/commits?sha=${ref}&path=${encodeURIComponent(path)}&per_page=1`, "application/vnd.github+json", etag), (res) => {
          const list = jsonOf<unknown>(res.body, "commits");
          const latest = (Array.isArray(list) ? list[0] : undefined) as
            | { commit?: { author?: { name?: unknown; date?: unknown } }; author?: { login?: unknown } | null }
            | undefined;
          const date = latest?.commit?.author?.date;
          // Only a real date is kept: a page shows none rather than fail on another.
          if (typeof date !== "string" || Number.isNaN(Date.parse(date))) return "null";
          const author = [latest?.author?.login, latest?.commit?.author?.name].find((a): a is string => typeof a === "string") ?? "";
          return JSON.stringify({ date, author: author.slice(0, 100) });
        }),
      );
      return JSON.parse(json) as LastUpdated;
    },
  };
}

/** Forgets the file lists of local folders ("refresh now" reads the folder again). */
export function forgetLocalTrees(ctx: Pick<AppContext, "docs">): void {
  ctx.docs.localTrees.clear();
}

/** A folder on this machine: its file list read once per process, a redeploy or restart reads it again; the webhook never does. */
function localRepository(ctx: Pick<AppContext, "docs">, source: DocsSourceRow): Repository {
  const { localTrees } = ctx.docs;
  const root = source.localPath as string;
  // Where the path really leads: a symbolic link (a git checkout may hold them) must not lead out of the folder.
  const inside = (path: string) => {
    const full = join(root, allowed(source, path));
    let real: string;
    try {
      real = realpathSync(full);
    } catch {
      throw new RepositoryUnavailable(`${path} does not exist`);
    }
    if (relative(realpathSync(root), real).split(sep).includes("..") || lstatSync(full).isSymbolicLink())
      throw new RepositoryUnavailable(`${path} leads outside the source`);
    return real;
  };
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      if (entry.name.startsWith(".")) return [];
      const full = join(dir, entry.name);
      if (entry.isDirectory()) return walk(full);
      return entry.isFile() ? [relative(root, full).split(sep).join("/")] : [];
    });
  const guarded = <T>(read: () => T): Promise<T> => {
    try {
      return Promise.resolve(read());
    } catch (e) {
      return Promise.reject(e instanceof RepositoryUnavailable ? e : new RepositoryUnavailable(String(e)));
    }
  };
  const files = (): Promise<string[]> => {
    // The folder's file list is read once per process (a redeploy or restart reads it again).
    const key = `${source.id}\u0000${root}\u0000${source.docsRoot}`;
    const known = localTrees.get(key);
    if (known) return Promise.resolve(known);
    return guarded(() => walk(root).filter((p) => underRoot(source.docsRoot, p) && readable(p))).then((list) => {
      localTrees.set(key, list);
      return list;
    });
  };
  return {
    // Versions from the files' times and sizes: a stat each, no read.
    tree: async () =>
      (await files()).map((path) => {
        try {
          return { path, version: statVersion(statSync(join(root, path))) };
        } catch {
          // Gone or unreadable since the list was read: its read says so.
          return { path, version: null };
        }
      }),
    text: (path) => guarded(() => readFileSync(inside(path), "utf8")),
    read: (path) =>
      guarded(() => {
        const full = inside(path);
        const version = statVersion(statSync(full));
        return { text: readFileSync(full, "utf8"), version };
      }),
    file: (path) =>
      guarded(() => {
        const type = mediaType(path);
        const full = inside(path);
        if (type === null || statSync(full).size > MAX_FILE_BYTES) throw new RepositoryUnavailable(`${path} is not a picture to serve`);
        return { bytes: new Uint8Array(readFileSync(full)), type };
      }),
    lastUpdated: (path) => guarded(() => ({ date: statSync(inside(path)).mtime.toISOString(), author: "" })),
  };
}

/** Files carried in the executable (the built-in guide): read-only, no network, no dates. */
function embeddedRepository(source: DocsSourceRow, files: ReadonlyMap<string, Uint8Array>): Repository {
  const read = (path: string) => {
    const bytes = files.get(allowed(source, path));
    if (!bytes) throw new RepositoryUnavailable(`${path} does not exist`);
    return bytes;
  };
  return {
    tree: async () =>
      [...files].filter(([path]) => underRoot(source.docsRoot, path) && readable(path)).map(([path, bytes]) => ({ path, version: bytesVersion(bytes) })),
    text: async (path) => new TextDecoder().decode(read(path)),
    read: async (path) => {
      const bytes = read(path);
      return { text: new TextDecoder().decode(bytes), version: bytesVersion(bytes) };
    },
    async file(path) {
      const type = mediaType(path);
      if (type === null) throw new RepositoryUnavailable(`${path} is not a picture`);
      return { bytes: read(path), type };
    },
    lastUpdated: async () => null,
  };
}

export function repositoryOf(ctx: Ctx, source: DocsSourceRow): Repository {
  if (source.kind === "builtin") return embeddedRepository(source, guideFiles().files);
  return source.kind === "github" ? hostedRepository(ctx, source) : localRepository(ctx, source);
}
