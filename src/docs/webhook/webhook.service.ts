import { join } from "node:path";
import { desc } from "drizzle-orm";
import type { AppContext } from "../../context/context.ts";
import { withTx } from "../../db/tx.ts";
import { randomToken } from "../../shared/crypto.ts";
import { invalidRequest } from "../../shared/errors.ts";
import { drop, dropSource } from "../cache/docs-cache.ts";
import { insideRoot, isMarkdown } from "../repository/repository.ts";
import { sourcesForRepository } from "../sources/sources.service.ts";
import type { DocsSourceRow } from "../sources/sources.table.ts";
import { docsWebhookDeliveries } from "./deliveries.table.ts";
import { recordDelivery, settleDelivery, unsignedGate } from "./delivery-log.ts";
import { largeBodies, type ReceivedBody, receiveBody, SPOOL_FOLDER, signatureOf } from "./webhook-body.ts";
import { badSignature } from "./webhook.errors.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "config">;
/** Spec 3 section 4.4's answers, all 200: a text (`ignored`, `repo not configured`) or JSON. Refusals are thrown. */
export type WebhookAnswer = string | Record<string, unknown>;

type Commit = { added?: unknown; modified?: unknown; removed?: unknown };
type PushPayload = { ref?: unknown; before?: unknown; after?: unknown; deleted?: unknown; commits?: unknown; repository?: { full_name?: unknown } };

/** What marks the row of a delivery that did not claim its id (the id shown is the part before). */
const UNCLAIMED = "#unclaimed-";

/** GitHub lists at most 2048 commits in a push and 3000 files per commit: past that the list is not the whole change. */
const MAX_COMMITS = 2048;
const MAX_FILES = 3000;

/** The event-type header: `X-GitHub-Event`, or the like of another GitHub-compatible service (X-Gitea-Event...). */
function eventOf(headers: Headers): string {
  const github = headers.get("x-github-event");
  if (github) return github;
  for (const [name, value] of headers) if (/^x-[a-z0-9-]+-event$/.test(name)) return value;
  return "";
}

function deliveryOf(headers: Headers): string | null {
  for (const [name, value] of headers) if (/^x-[a-z0-9-]+-delivery$/.test(name) && value !== "" && value.length <= 200) return value;
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
 * docs root drops its raw body, last-updated metadata, sidebar facts and rendered HTML in every
 * locale; every push drops the sidebars and the repository tree, and the translation rows. The
 * sidebars are then built again from the facts kept of the files not touched, so the first view
 * after a push reads the tree and the touched files only. Answers the number of touched Markdown
 * files under the docs root (0 when none was).
 */
export async function invalidatePush(ctx: Pick<AppContext, "db">, source: DocsSourceRow, touched: string[]): Promise<number> {
  const mine = [...new Set(touched)].filter((p) => insideRoot(source.docsRoot, p));
  const markdown = mine.filter(isMarkdown);
  await drop(ctx, source.id, ["raw", "meta", "file", "facts"], mine);
  await drop(ctx, source.id, ["html"], [...new Set(markdown.map((p) => pagePathOf(source, p)))]);
  await drop(ctx, source.id, ["sidebar", "tree", "translation"]);
  return markdown.length;
}

/** A repository path's page path: under the docs root, without the locale folder (HTML is cached per locale by it). */
export function pagePathOf(source: Pick<DocsSourceRow, "docsRoot" | "locales">, repoPath: string): string {
  const inRoot = source.docsRoot === "" ? repoPath : repoPath.slice(source.docsRoot.length + 1);
  const [first, ...rest] = inRoot.split("/");
  return first !== undefined && rest.length > 0 && source.locales.includes(first) ? rest.join("/") : inRoot;
}

async function pushFor(ctx: Ctx, source: DocsSourceRow, push: PushPayload): Promise<{ invalidated: number; note: string }> {
  if (push.ref !== `refs/heads/${source.branch}`) return { invalidated: 0, note: `${source.slug}: other branch` };
  const commits = Array.isArray(push.commits) ? (push.commits as Commit[]) : [];
  const lists = commits.map((c) => [paths(c?.added), paths(c?.modified), paths(c?.removed)]);
  const truncated =
    commits.length >= MAX_COMMITS ||
    lists.some((l) => l.some((p) => p === null) || l.reduce((n, p) => n + (p?.length ?? 0), 0) >= MAX_FILES) ||
    // A forced push that only rewinds lists no commit, yet changes files.
    (commits.length === 0 && push.deleted !== true && push.before !== push.after);
  if (truncated) return { invalidated: await dropSource(ctx, source.id), note: `${source.slug}: commit list incomplete, every entry dropped` };
  const touched = lists.flatMap((l) => l.flatMap((p) => p ?? []));
  const invalidated = await invalidatePush(ctx, source, touched);
  return { invalidated, note: `${source.slug}: ${invalidated} file(s)` };
}

/**
 * `POST /api/webhook` (spec 3 section 4.4): refused before its body is read when it cannot verify
 * (a secret set, and no signature of the one form that can) or, unsigned, past its address's
 * allowance; else the body is read once, hashed as it streams in, and handled once it verifies.
 */
export function webhookReceiver(ctx: Pick<AppContext, "db" | "clock" | "config" | "access">) {
  const gate = unsignedGate(ctx);
  const large = largeBodies();
  const spoolDir = join(ctx.config.dataDir, SPOOL_FOLDER);
  return async (request: Request, ip: string): Promise<WebhookAnswer> => {
    const secret = ctx.config.docsWebhookSecret;
    const signature = signatureOf(request.headers.get("x-hub-signature-256"));
    // Spec 3 section 5.3: with a secret set, a missing header is 401 (and read no further).
    if (secret !== "" && signature === null) throw badSignature("no sha256 signature header", true);
    if (secret === "") await gate(ip);
    const answer = await receiveBody(request, { secret, signature, spoolDir, large }, (body) => handleWebhook(ctx, request.headers, body));
    if (answer === null) throw badSignature("the signature does not match the body");
    return answer;
  };
}

/**
 * A delivery whose body verified (or came unsigned while no secret is set): `ping`, `push` (a
 * delivery id or a body seen before is not processed again), and other events.
 */
export async function handleWebhook(ctx: Ctx, headers: Headers, body: ReceivedBody): Promise<WebhookAnswer> {
  const event = eventOf(headers);
  const delivery = deliveryOf(headers);
  const base = { event, receivedAt: ctx.clock.now(), invalidated: 0 };
  // Only a processed push claims its delivery id and its body (so GitHub's "Redeliver" of anything
  // else, say before the source was added, is processed then); the rest are logged under ids of their own.
  const log = (repository: string | null, result: string) =>
    recordDelivery(ctx, { ...base, id: `${delivery ?? "none"}${UNCLAIMED}${randomToken(9)}`, repository, result });

  if (event === "ping") {
    await log(null, "pong");
    return { pong: true };
  }
  if (event !== "push") {
    await log(null, "ignored");
    return "ignored";
  }
  let push: PushPayload;
  try {
    push = payloadOf(body.raw, headers.get("content-type") ?? "") as PushPayload;
    if (typeof push !== "object" || push === null || Array.isArray(push)) throw new Error("not an object");
  } catch {
    throw invalidRequest("the push payload is not a JSON object");
  }
  const fullName = typeof push.repository?.full_name === "string" ? push.repository.full_name.toLowerCase() : "";
  const sources = fullName === "" ? [] : await sourcesForRepository(ctx, fullName);
  if (sources.length === 0) {
    await log(fullName || null, "repo not configured");
    return "repo not configured";
  }
  // The delivery is claimed, by its id and by its body's digest (what the signature covers: a
  // replay under another id or none is the same body), and what it names dropped, in one
  // transaction: a redelivery or a replay changes nothing, and a push that failed half-way claimed nothing.
  const id = delivery ?? `none${UNCLAIMED}${randomToken(9)}`;
  const outcome = await withTx(ctx.db, async () => {
    if (!(await recordDelivery(ctx, { ...base, id, repository: fullName, result: "processing", digest: body.digest }))) return null;
    let invalidated = 0;
    const notes: string[] = [];
    for (const source of sources) {
      const one = await pushFor(ctx, source, push);
      invalidated += one.invalidated;
      notes.push(one.note);
    }
    await settleDelivery(ctx, id, notes.join("; "), invalidated);
    return invalidated;
  });
  if (outcome === null) return { invalidated: 0, duplicate: true };
  return { invalidated: outcome };
}

export async function recentDeliveries(ctx: Pick<AppContext, "db">, limit = 30) {
  const rows = await ctx.db.select().from(docsWebhookDeliveries).orderBy(desc(docsWebhookDeliveries.receivedAt)).limit(limit).all();
  return rows.map((d) => ({
    id: d.id.split(UNCLAIMED)[0] as string,
    event: d.event,
    repository: d.repository,
    received_at: d.receivedAt,
    result: d.result,
    invalidated: d.invalidated,
  }));
}
