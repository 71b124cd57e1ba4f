import { createHmac, randomUUID } from "node:crypto";
import examples from "@octokit/webhooks-examples";
import { eq } from "drizzle-orm";
import { createSource } from "../../src/docs/sources/sources.service.ts";
import { docsSources } from "../../src/docs/sources/sources.table.ts";
import type { TestApp } from "../helpers/app.ts";
import { readAnswer } from "../helpers/cookie-jar.ts";
import type { SignedUp } from "../helpers/identity.ts";

/** Who last changed a file, as the commits API tells it. */
export type Author = { name: string; login: string; date: string };
type Repo = { branch: string; files: Map<string, Uint8Array>; authors: Map<string, Author>; failWith: number | null; unreadable: Set<string> };

const bytes = (content: string | Uint8Array) => (typeof content === "string" ? new TextEncoder().encode(content) : content);
/** Git's blob id of a file, as GitHub's tree lists it. */
const blobSha = (content: Uint8Array) => new Bun.CryptoHasher("sha1").update(`blob ${content.byteLength}\0`).update(content).digest("hex");
const DEFAULT_AUTHOR: Author = { name: "Mona Lisa", login: "octocat", date: "2024-05-01T10:00:00Z" };

/**
 * A stand-in of the GitHub REST API on loopback: the git tree (with each blob's sha), raw contents and commit history of
 * repositories kept in memory, changed by the test between requests. It counts what it serves
 * (`tree:<repo>`, `raw:<repo>:<path>`, `meta:<repo>:<path>`), so a test sees whether the docs
 * site answered from its cache or fetched again.
 */
export function githubStandIn() {
  const repos = new Map<string, Repo>();
  const counts = new Map<string, number>();
  const requests: { path: string; accept: string | null; authorization: string | null }[] = [];
  const count = (key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);
  const notFound = () => Response.json({ message: "Not Found" }, { status: 404 });

  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      const url = new URL(req.url);
      requests.push({ path: url.pathname + url.search, accept: req.headers.get("accept"), authorization: req.headers.get("authorization") });
      const parts = url.pathname.split("/").slice(1).map(decodeURIComponent);
      if (parts[0] !== "repos" || parts.length < 4) return notFound();
      const fullName = `${parts[1]}/${parts[2]}`.toLowerCase();
      const repo = repos.get(fullName);
      if (!repo) return notFound();
      if (repo.failWith !== null) return new Response("upstream trouble", { status: repo.failWith });
      const rest = parts.slice(3);
      if (rest[0] === "git" && rest[1] === "trees" && url.searchParams.get("recursive") === "1") {
        if (rest.slice(2).join("/") !== repo.branch) return notFound();
        count(`tree:${fullName}`);
        return Response.json({
          sha: "0".repeat(40),
          tree: [...repo.files].map(([path, content]) => ({ path, type: "blob", mode: "100644", sha: blobSha(content) })),
          truncated: false,
        });
      }
      if (rest[0] === "contents") {
        const path = rest.slice(1).join("/");
        const file = repo.files.get(path);
        if (url.searchParams.get("ref") !== repo.branch || !file || req.headers.get("accept") !== "application/vnd.github.raw") return notFound();
        if (repo.unreadable.has(path)) return new Response("upstream trouble", { status: 502 });
        count(`raw:${fullName}:${path}`);
        return new Response(file as Uint8Array<ArrayBuffer>, { headers: { "content-type": "application/vnd.github.raw" } });
      }
      if (rest[0] === "commits" && rest.length === 1) {
        const path = url.searchParams.get("path") ?? "";
        if (url.searchParams.get("sha") !== repo.branch || url.searchParams.get("per_page") !== "1") return notFound();
        count(`meta:${fullName}:${path}`);
        const author = repo.authors.get(path);
        if (!author || !repo.files.has(path)) return Response.json([]);
        return Response.json([
          { sha: "1".repeat(40), commit: { author: { name: author.name, email: "x@example.com", date: author.date } }, author: { login: author.login } },
        ]);
      }
      return notFound();
    },
  });

  const repoOf = (fullName: string) => {
    const repo = repos.get(fullName.toLowerCase());
    if (!repo) throw new Error(`no repository ${fullName} in the stand-in`);
    return repo;
  };
  return {
    url: `http://127.0.0.1:${server.port}`,
    requests,
    /** A repository with these files (all last changed by octocat unless `put` says otherwise). */
    repo(fullName: string, files: Record<string, string | Uint8Array>, branch = "main") {
      const repo: Repo = { branch, files: new Map(), authors: new Map(), failWith: null, unreadable: new Set() };
      for (const [path, content] of Object.entries(files)) {
        repo.files.set(path, bytes(content));
        repo.authors.set(path, DEFAULT_AUTHOR);
      }
      repos.set(fullName.toLowerCase(), repo);
    },
    put(fullName: string, path: string, content: string | Uint8Array, author: Author = DEFAULT_AUTHOR) {
      const repo = repoOf(fullName);
      repo.files.set(path, bytes(content));
      repo.authors.set(path, author);
    },
    remove(fullName: string, path: string) {
      repoOf(fullName).files.delete(path);
    },
    /** The file's contents answer 502 from now on, while the tree still lists it (false: normal again). */
    unreadable(fullName: string, path: string, unreadable = true) {
      const set = repoOf(fullName).unreadable;
      if (unreadable) set.add(path);
      else set.delete(path);
    },
    /** Every request for the repository answers this status from now on (null: normal again). */
    failWith(fullName: string, status: number | null) {
      repoOf(fullName).failWith = status;
    },
    /** What was served so far, by `tree:<repo>`, `raw:<repo>:<path>` and `meta:<repo>:<path>`. */
    hits: (): Record<string, number> => Object.fromEntries(counts),
    stop: () => server.stop(true),
  };
}
export type GitHubStandIn = ReturnType<typeof githubStandIn>;

/** What was served between two `hits()` snapshots: only the keys that moved, and by how much. */
export function served(before: Record<string, number>, after: Record<string, number>): Record<string, number> {
  const moved: Record<string, number> = {};
  for (const [key, n] of Object.entries(after)) if (n !== (before[key] ?? 0)) moved[key] = n - (before[key] ?? 0);
  return moved;
}

/** A Kroki stand-in: `POST /<type>/svg` answers an SVG that shows the diagram's source; counts the renders. */
export function krokiStandIn() {
  const renders: { type: string; source: string }[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const match = /^\/([a-z0-9]+)\/svg$/.exec(new URL(req.url).pathname);
      if (req.method !== "POST" || !match) return new Response("not found", { status: 404 });
      const source = await req.text();
      renders.push({ type: match[1] as string, source });
      return new Response(`<svg xmlns="http://www.w3.org/2000/svg"><text>${Bun.escapeHTML(source)}</text></svg>`, {
        headers: { "content-type": "image/svg+xml" },
      });
    },
  });
  return { url: `http://127.0.0.1:${server.port}`, renders, stop: () => server.stop(true) };
}

/**
 * A LibreTranslate stand-in: `POST /translate` answers the text upper-cased (HTML: its text between
 * tags), so a translated page is told apart at a glance; keeps every request.
 */
export function libreTranslateStandIn() {
  const requests: { q: string; source: string; target: string; format: string }[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      if (req.method !== "POST" || new URL(req.url).pathname !== "/translate") return new Response("not found", { status: 404 });
      const body = (await req.json()) as { q: string; source: string; target: string; format: string };
      requests.push(body);
      const translatedText = body.format === "html" ? body.q.replace(/>([^<]+)</g, (_, text: string) => `>${text.toUpperCase()}<`) : body.q.toUpperCase();
      return Response.json({ translatedText });
    },
  });
  return { url: `http://127.0.0.1:${server.port}`, requests, stop: () => server.stop(true) };
}

/**
 * A source added through the admin API (which wants an https API base), then pointed at the
 * stand-in on loopback, as only a test can.
 */
export async function addSource(app: TestApp, admin: SignedUp, body: Record<string, unknown>, apiBase?: string) {
  const res = await admin.browser.json("POST", "/api/docs/sources", { api_base: "https://example.invalid", ...body });
  if (res.status !== 201) throw new Error(`adding a source failed: ${res.status} ${JSON.stringify(res.data)}`);
  const source = res.data.source as { id: string; slug: string; full_name: string | null };
  if (apiBase !== undefined) await app.ctx.db.update(docsSources).set({ apiBase }).where(eq(docsSources.id, source.id)).run();
  return source;
}

/** A hosting-service source made directly (no admin needed), pointed at a stand-in on loopback. */
export async function pointedSource(app: TestApp, slug: string, fullName: string, apiBase: string) {
  const source = await createSource(app.ctx, { slug, name: slug, kind: "github", full_name: fullName, branch: "main", docs_root: "docs" });
  await app.ctx.db
    .update(docsSources)
    .set({ apiBase: apiBase.replace(/\/$/, "") })
    .where(eq(docsSources.id, source.id))
    .run();
  return source;
}

/** The article of a site page: the rendered document, without the sidebar and the page's frame. */
export const articleOf = (html: string) => html.slice(html.indexOf("<article>"), html.indexOf("</article>"));

/** A page of the site as a reader gets it. */
export async function getPage(app: TestApp, path: string) {
  const res = await fetch(app.url + path, { redirect: "manual" });
  return { status: res.status, headers: res.headers, html: await res.text() };
}

// Real payloads GitHub sends, from @octokit/webhooks-examples.
const definitions = examples as unknown as { name: string; examples: Record<string, any>[] }[];
const examplesOf = (event: string) => definitions.find((d) => d.name === event)?.examples ?? [];
/** A push to a branch with one commit (the package's `refs/heads/master` example). */
const PUSH = examplesOf("push").find((e) => e.ref === "refs/heads/master" && e.commits.length === 1) as Record<string, any>;
/** A tag push: no commits. */
export const TAG_PUSH = examplesOf("push").find((e) => e.ref.startsWith("refs/tags/") && e.deleted === false) as Record<string, any>;
export const PING = examplesOf("ping")[0] as Record<string, any>;
export const ISSUES_OPENED = examplesOf("issues").find((e) => e.action === "opened") as Record<string, any>;
if (!PUSH || !TAG_PUSH || !PING || !ISSUES_OPENED) throw new Error("@octokit/webhooks-examples no longer has the examples these tests use");

export type Files = { added?: string[]; modified?: string[]; removed?: string[] };

/** GitHub's push payload for `fullName`, `ref`, one commit per entry of `commits`. */
export function pushPayload(fullName: string, commits: Files[], ref = "refs/heads/main"): Record<string, any> {
  const payload = structuredClone(PUSH);
  payload.ref = ref;
  payload.before = "a".repeat(40);
  payload.after = "b".repeat(40);
  payload.created = false;
  payload.repository.full_name = fullName;
  payload.repository.name = fullName.split("/")[1];
  payload.commits = commits.map((files, i) => ({
    ...structuredClone(PUSH.commits[0]),
    id: (i + 1).toString(16).padStart(40, "0"),
    message: `Change ${i + 1}`,
    added: files.added ?? [],
    modified: files.modified ?? [],
    removed: files.removed ?? [],
  }));
  payload.head_commit = payload.commits.at(-1) ?? null;
  return payload;
}

export const signature = (secret: string, body: Uint8Array | string) => `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;

/**
 * `POST /api/webhook` as GitHub sends it: `body` sent byte for byte (a string as its UTF-8), signed
 * with `secret` unless `sign` says otherwise (null: no signature header at all); `delivery` null
 * sends no X-GitHub-Delivery.
 */
export async function deliver(
  app: TestApp,
  event: string,
  body: string | Uint8Array | Record<string, unknown>,
  {
    secret,
    sign,
    delivery = randomUUID(),
    contentType = "application/json",
  }: { secret?: string; sign?: string | null; delivery?: string | null; contentType?: string } = {},
) {
  const raw = bytes(typeof body === "string" || body instanceof Uint8Array ? body : JSON.stringify(body));
  const headers: Record<string, string> = {
    "content-type": contentType,
    "user-agent": "GitHub-Hookshot/044aadd",
    "x-github-event": event,
    "x-github-hook-id": "292430182",
  };
  if (delivery !== null) headers["x-github-delivery"] = delivery;
  const header = sign === undefined ? (secret === undefined ? null : signature(secret, raw)) : sign;
  if (header !== null) headers["x-hub-signature-256"] = header;
  const res = await fetch(`${app.url}/api/webhook`, { method: "POST", headers, body: raw as Uint8Array<ArrayBuffer> });
  const contentTypeAnswered = res.headers.get("content-type");
  return { ...(await readAnswer(res)), contentType: contentTypeAnswered };
}
