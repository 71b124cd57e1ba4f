import { and, eq, isNull, sql } from "drizzle-orm";
import type { AppContext } from "../../context/context.ts";
import { SHARE_CAPABILITIES, type ShareCapabilities } from "../../contract/workspace.ts";
import type { Db } from "../../db/client.ts";
import { randomToken, sha256Hex } from "../../shared/crypto.ts";
import { shareLinks } from "./share-links.table.ts";
import { onFirstUse } from "../../shared/on-first-use.ts";

export type ShareLinkRow = typeof shareLinks.$inferSelect;

const TOKEN_PURPOSE = "share_links.token";

/** 192 bits from the CSPRNG, base64url: unguessable and safe in a path. */
export function newToken(): { token: string; tokenHash: string } {
  const token = randomToken(24);
  return { token, tokenHash: sha256Hex(token) };
}

export const sealToken = (ctx: Pick<AppContext, "secrets">, token: string) => ctx.secrets.seal(token, TOKEN_PURPOSE);

/** Spec 2 section 2.4 "comma-separated allow-list": stored trimmed, lower-case, without empties or repeats. */
export function normaliseEmails(raw: string): string {
  return [
    ...new Set(
      raw
        .split(",")
        .map((e) => e.trim().toLowerCase())
        .filter(Boolean),
    ),
  ].join(",");
}

/** Case-insensitive, trimmed match against the allow-list; an empty list lets anyone in. */
export function emailAllowed(allowed: string, email: string | undefined): boolean {
  if (allowed === "") return true;
  const wanted = email?.trim().toLowerCase() ?? "";
  return wanted !== "" && allowed.split(",").includes(wanted);
}

export const capabilitiesOf = (row: ShareLinkRow): ShareCapabilities => Object.fromEntries(SHARE_CAPABILITIES.map((c) => [c, row[c]])) as ShareCapabilities;

/** The link as the management API answers it (spec 2 section 2.4). */
export function linkJson(ctx: Pick<AppContext, "secrets">, row: ShareLinkRow, { setName, withToken = true }: { setName?: string; withToken?: boolean } = {}) {
  return {
    id: row.id,
    setId: row.setId,
    ...(setName !== undefined && { setName }),
    // The token is the link's power: only those who may manage the set's links see it (a member
    // could otherwise use a link's capabilities beyond their own role).
    token: withToken ? ctx.secrets.open(row.tokenSealed, TOKEN_PURPOSE) : "",
    name: row.name,
    ...capabilitiesOf(row),
    allowedEmails: row.allowedEmails,
    requireEmailCode: row.requireEmailCode,
    createdBy: row.createdBy,
    createdAt: new Date(row.createdAt).toISOString(),
  };
}
export type LinkJson = ReturnType<typeof linkJson>;

/** Every public request starts with the token lookup: prepared once per app. */
export function createShareLinksRepo({ db }: { db: Db }) {
  const byHash = onFirstUse(() =>
    db
      .select()
      .from(shareLinks)
      .where(eq(shareLinks.tokenHash, sql.placeholder("hash")))
      .prepare(),
  );
  return { findByHash: (hash: string): Promise<ShareLinkRow | undefined> => byHash().get({ hash }) };
}

export type ShareLinksRepo = ReturnType<typeof createShareLinksRepo>;

/** The link a public token names, or undefined. The lookup is by hash: the token itself is never stored. */
export async function findByToken(ctx: Pick<AppContext, "workspace">, token: string): Promise<ShareLinkRow | undefined> {
  // A token is base64url; anything else cannot be one (and is not worth hashing).
  if (!/^[A-Za-z0-9_-]{16,128}$/.test(token)) return undefined;
  return ctx.workspace.shareLinks.findByHash(sha256Hex(token));
}

/** A live link of the team (its set not deleted). */
export function findTeamLink(ctx: Pick<AppContext, "db" | "workspace">, teamId: string, linkId: string): Promise<ShareLinkRow | undefined> {
  return ctx.db
    .select()
    .from(shareLinks)
    .where(and(eq(shareLinks.id, linkId), eq(shareLinks.teamId, teamId), isNull(shareLinks.setDeletedAt)))
    .get();
}

/** Called with a set's deletion: its links answer `Set not found` from now on, whatever comes later. */
export async function orphanSetLinks(ctx: Pick<AppContext, "db" | "clock" | "workspace">, teamId: string, setId: string): Promise<void> {
  await ctx.db
    .update(shareLinks)
    .set({ setDeletedAt: ctx.clock.now() })
    .where(and(eq(shareLinks.teamId, teamId), eq(shareLinks.setId, setId), isNull(shareLinks.setDeletedAt)))
    .run();
}
