import { createHmac } from "node:crypto";
import { desc, eq } from "drizzle-orm";
import type { AppContext } from "../../context/context.ts";
import { changedRows } from "../../db/changes.ts";
import { withTx } from "../../db/tx.ts";
import { constantTimeEqual, randomToken } from "../../shared/crypto.ts";
import { drop, dropSource } from "../cache/docs-cache.ts";
import { isMarkdown, underRoot } from "../repository/repository.ts";
import { sourcesForRepository } from "../sources/sources.service.ts";
import type { DocsSourceRow } from "../sources/sources.table.ts";
import { docsWebhookDeliveries } from "./deliveries.table.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "config">;
export type WebhookAnswer = { status: number; body: string | Record<string, unknown> };

type Commit = { added?: unknown; modified?: unknown; removed?: unknown };
type PushPayload = { ref?: unknown; before?: unknown; after?: unknown; deleted?: unknown; commits?: unknown; repository?: { full_name?: unknown } };

/** What marks the row of a delivery that did not claim its id (the id shown is the part before). */
const UNCLAIMED = "#unclaimed-";

/** GitHub lists at most 2048 commits in a push and 3000 files per commit: past that the list is not the whole change. */
const MAX_COMMITS = 2048;
const MAX_FILES = 3000;

/** Spec 3 section 4.4 step 2: HMAC-SHA256 of the raw bytes, hex, compared in constant time. */
export function signatureHolds(secret: string, raw: Uint8Array, header: string | null): boolean {
  const expected = `sha256=${createHmac("sha256", secret).update(raw).digest("hex")}`;
  return header !== null && constantTimeEqual(header.trim().toLowerCase(), expected);
}

/** The event-type header: `X-GitHub-Event`, or the like of another GitHub-compatible service (X-Gitea-Event...). */
function eventOf(headers: Headers): string {
  const github = headers.get("x-github-event");
  if (github) return github;
  for (const [name, value] of headers) if (/^x-[a-z0-9-]+-event$/.test(name)) return value;
  return "";
}

function deliveryOf(headers: Headers): string | null {
  for (const [name, value] of headers) if (/^x-[a-z0-9-]+-delivery$/.test(name) && value.length <= 200) return value;
  return null;
}

/** The payload as JSON, or GitHub's form content type (`payload=<json>`). */
function payloadOf(raw: Uint8Array, contentType: string): unknown {
  const text = new TextDecoder().decode(raw);
  const json = contentType.toLowerCase().startsWith("application/x-www-form-urlencoded") ? (new URLSearchParams(text).get("payload") ?? "") : text;
  return JSON.parse(json);
}

const paths = (value: unknown): string[] | null => (Array.isArray(value) && value.every((p) => typeof p === "string") ? value : null);

/**
 * Spec 3 section 4.4's invalidation table for one source: each touched Markdown file under the
 * docs root drops its raw body, last-updated metadata and rendered HTML in every locale; every
 * push drops the sidebars and the repository tree, and the translation rows. Answers the number
 * of touched Markdown files under the docs root (0 when none was).
 */
export function invalidatePush(ctx: Pick<AppContext, "db">, source: DocsSourceRow, touched: string[]): number {
  const mine = [...new Set(touched)].filter((p) => underRoot(source.docsRoot, p));
  const markdown = mine.filter(isMarkdown);
  drop(ctx, source.id, ["raw", "meta", "file"], mine);
  drop(ctx, source.id, ["html"], [...new Set(markdown.map((p) => pagePathOf(source, p)))]);
  drop(ctx, source.id, ["sidebar", "tree", "translation"]);
  return markdown.length;
}

/** A repository path's page path: under the docs root, without the locale folder (HTML is cached per locale by it). */
export function pagePathOf(source: Pick<DocsSourceRow, "docsRoot" | "locales">, repoPath: string): string {
  const inRoot = source.docsRoot === "" ? repoPath : repoPath.slice(source.docsRoot.length + 1);
  const [first, ...rest] = inRoot.split("/");
  return first !== undefined && rest.length > 0 && source.locales.includes(first) ? rest.join("/") : inRoot;
}

function pushFor(ctx: Ctx, source: DocsSourceRow, push: PushPayload): { invalidated: number; note: string } {
  if (push.ref !== `refs/heads/${source.branch}`) return { invalidated: 0, note: `${source.slug}: other branch` };
  const commits = Array.isArray(push.commits) ? (push.commits as Commit[]) : [];
  const lists = commits.map((c) => [paths(c?.added), paths(c?.modified), paths(c?.removed)]);
  const truncated =
    commits.length >= MAX_COMMITS ||
    lists.some((l) => l.some((p) => p === null) || l.reduce((n, p) => n + (p?.length ?? 0), 0) >= MAX_FILES) ||
    // A forced push that only rewinds lists no commit, yet changes files.
    (commits.length === 0 && push.deleted !== true && push.before !== push.after);
  if (truncated) return { invalidated: dropSource(ctx, source.id), note: `${source.slug}: commit list incomplete, every entry dropped` };
  const touched = lists.flatMap((l) => l.flatMap((p) => p ?? []));
  const invalidated = invalidatePush(ctx, source, touched);
  return { invalidated, note: `${source.slug}: ${invalidated} file(s)` };
}

/**
 * `POST /api/webhook` (spec 3 section 4.4), given the raw body read once: the signature first,
 * then `ping`, `push` (a delivery seen before is not processed again), and other events.
 */
export function handleWebhook(ctx: Ctx, headers: Headers, raw: Uint8Array): WebhookAnswer {
  const secret = ctx.config.docsWebhookSecret;
  if (secret !== "" && !signatureHolds(secret, raw, headers.get("x-hub-signature-256"))) return { status: 401, body: { error: "bad signature" } };
  const event = eventOf(headers);
  const delivery = deliveryOf(headers);
  // Only a processed push claims its delivery id (so GitHub's "Redeliver" of anything else, say
  // before the source was added, is processed then); the rest are logged under ids of their own.
  const record = (repository: string | null, result: string, invalidated = 0, claim = false) =>
    changedRows(
      ctx.db
        .insert(docsWebhookDeliveries)
        .values({
          id: claim && delivery !== null ? delivery : `${delivery ?? "none"}${UNCLAIMED}${randomToken(9)}`,
          event: event.slice(0, 50),
          repository,
          receivedAt: ctx.clock.now(),
          result,
          invalidated,
        })
        .onConflictDoNothing()
        .run(),
    ) === 1;

  if (event === "ping") {
    record(null, "pong");
    return { status: 200, body: { pong: true } };
  }
  if (event !== "push") {
    record(null, "ignored");
    return { status: 200, body: "ignored" };
  }
  let push: PushPayload;
  try {
    push = payloadOf(raw, headers.get("content-type") ?? "") as PushPayload;
    if (typeof push !== "object" || push === null || Array.isArray(push)) throw new Error("not an object");
  } catch {
    return { status: 400, body: { error: "Invalid request" } };
  }
  const fullName = typeof push.repository?.full_name === "string" ? push.repository.full_name.toLowerCase() : "";
  const sources = fullName === "" ? [] : sourcesForRepository(ctx, fullName);
  if (sources.length === 0) {
    record(fullName || null, "repo not configured");
    return { status: 200, body: "repo not configured" };
  }
  // The delivery is claimed, and what it names dropped, in one transaction: a redelivery (or a
  // replay) changes nothing, and a delivery that failed half-way claimed nothing.
  const outcome = withTx(ctx.db, () => {
    if (delivery !== null && !record(fullName, "processing", 0, true)) return null;
    let invalidated = 0;
    const notes: string[] = [];
    for (const source of sources) {
      const one = pushFor(ctx, source, push);
      invalidated += one.invalidated;
      notes.push(one.note);
    }
    const result = notes.join("; ");
    if (delivery === null) record(fullName, result, invalidated);
    else ctx.db.update(docsWebhookDeliveries).set({ result, invalidated }).where(eq(docsWebhookDeliveries.id, delivery)).run();
    return invalidated;
  });
  if (outcome === null) return { status: 200, body: { invalidated: 0, duplicate: true } };
  return { status: 200, body: { invalidated: outcome } };
}

export function recentDeliveries(ctx: Pick<AppContext, "db">, limit = 30) {
  return ctx.db
    .select()
    .from(docsWebhookDeliveries)
    .orderBy(desc(docsWebhookDeliveries.receivedAt))
    .limit(limit)
    .all()
    .map((d) => ({
      id: d.id.split(UNCLAIMED)[0] as string,
      event: d.event,
      repository: d.repository,
      received_at: d.receivedAt,
      result: d.result,
      invalidated: d.invalidated,
    }));
}
