import { and, eq, gt } from "drizzle-orm";
import type { AppContext } from "../../context/context.ts";
import { deleteBefore, type PurgeStep } from "../../db/batch-delete.ts";
import type { Db } from "../../db/client.ts";
import { OutboundRefused, safeFetch } from "../../shared/safe-fetch.ts";
import { docsDiagrams } from "../cache/cache.table.ts";
import { docsSettings } from "../settings/docs-settings.ts";
import { decodeDiagram, encodeDiagram, KROKI_TYPES } from "../render/diagram-key.ts";
import { constantTimeEqual } from "../../shared/crypto.ts";
import { createHmac } from "node:crypto";

type Ctx = Pick<AppContext, "db" | "clock" | "outbound" | "log" | "secrets">;

/** Spec 3 section 8: a render is kept 7 days; its key is its source, so an edit makes a new one. */
export const DIAGRAM_TTL_MS = 7 * 86_400_000;
const MAX_SVG_BYTES = 2 * 1024 * 1024;

/**
 * A diagram's URL: its type and source (encoded as Kroki's own GET URLs are, so the key changes
 * with the source) and a MAC, so that only diagrams of pages this site rendered are drawn: the
 * route is no open proxy to the renderer.
 */
export function diagramUrl(ctx: Pick<AppContext, "secrets">, type: string, source: string): string {
  const key = encodeDiagram(source);
  return `/docs/_diagrams/${encodeURIComponent(type)}/${key}.${diagramMac(ctx, type, key)}.svg`;
}

const diagramMac = (ctx: Pick<AppContext, "secrets">, type: string, key: string) =>
  createHmac("sha256", ctx.secrets.derive("docs diagrams")).update(`${type}/${key}`).digest("base64url").slice(0, 22);

/** The SVG of a diagram whose URL this site made, rendered by the configured Kroki-compatible service through the outbound guard, or null. */
export async function diagramSvg(ctx: Ctx, type: string, file: string): Promise<string | null> {
  const kroki = (await docsSettings(ctx)).kroki_url;
  if (kroki === "" || !(KROKI_TYPES as readonly string[]).includes(type)) return null;
  const [key = "", mac = "", ...rest] = file.replace(/\.svg$/, "").split(".");
  if (rest.length > 0 || !constantTimeEqual(mac, diagramMac(ctx, type, key))) return null;
  const source = decodeDiagram(key);
  if (source === null) return null;
  const id = `${type}/${key}`;
  const now = ctx.clock.now();
  const hit = await ctx.db
    .select({ svg: docsDiagrams.svg })
    .from(docsDiagrams)
    .where(and(eq(docsDiagrams.key, id), gt(docsDiagrams.expiresAt, now)))
    .get();
  if (hit) return hit.svg;
  try {
    const res = await safeFetch(
      `${kroki}/${type}/svg`,
      { method: "POST", body: source, headers: { "content-type": "text/plain; charset=utf-8", accept: "image/svg+xml" } },
      ctx.outbound,
      { maxBytes: MAX_SVG_BYTES },
    );
    if (res.status !== 200 || !/<svg[\s>]/i.test(res.body)) {
      ctx.log.warn("docs: diagram not rendered", { type, status: res.status });
      return null;
    }
    await ctx.db
      .insert(docsDiagrams)
      .values({ key: id, svg: res.body, expiresAt: now + DIAGRAM_TTL_MS })
      .onConflictDoUpdate({ target: docsDiagrams.key, set: { svg: res.body, expiresAt: now + DIAGRAM_TTL_MS } })
      .run();
    return res.body;
  } catch (e) {
    ctx.log.warn("docs: diagram renderer unreachable", { type, detail: e instanceof OutboundRefused ? e.detail : String(e) });
    return null;
  }
}

/** The purge of renders past their 7 days (the purge job runs it, a batch at a time: context/purges.ts). */
export const expiredDiagramsPurge = (db: Db): PurgeStep => deleteBefore(db, docsDiagrams, docsDiagrams.expiresAt);
