import { createHmac } from "node:crypto";
import { and, desc, eq, gt, isNull, lt, sql } from "drizzle-orm";
import { type Limit, recordHit, secondsUntilFree } from "../../access/rate-limit.ts";
import type { AppContext } from "../../context/context.ts";
import type { EmailCodeGrant, EmailCodeRequested } from "../../contract/api/workspace-mail.ts";
import { isMailAddress } from "../../contract/mail.ts";
import { changedRows } from "../../db/changes.ts";
import { withTx } from "../../db/tx.ts";
import { composeMail } from "../../mail/compose.ts";
import { enqueueMail, mailEnabled } from "../../mail/outbox.service.ts";
import { constantTimeEqual, sha256Hex } from "../../shared/crypto.ts";
import { headerLine } from "../../shared/text.ts";
import { emailAllowed } from "../storage/share-links.repo.ts";
import { shareEmailCodes } from "../storage/share-email-codes.table.ts";
import * as E from "./email-code.errors.ts";
import { issueGrant, needsEmailCode } from "./email-grant.ts";
import { type SharedVisit, viewLink } from "./shared.service.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "bus" | "config" | "secrets" | "workspace"> & Parameters<typeof enqueueMail>[0];

export const CODE_TTL_MS = 10 * 60_000;
export const MAX_ATTEMPTS = 5;
/** Codes mailed to one address, over every link: enough for a person, too few to guess with or to flood an inbox. */
const PER_ADDRESS: Limit[] = [
  { max: 5, windowMs: 15 * 60_000 },
  { max: 20, windowMs: 24 * 3600_000 },
];
/** Codes asked through one link, whatever the address. */
const PER_LINK: Limit[] = [{ max: 50, windowMs: 15 * 60_000 }];

const normal = (email: string) => email.trim().toLowerCase();

/** Only an HMAC is kept (a bare hash of six digits is undone by trying them all), bound to the link and the address. */
const codeHash = (ctx: Pick<AppContext, "secrets">, linkId: string, email: string, code: string) =>
  createHmac("sha256", ctx.secrets.derive("share link email code")).update(`${linkId}\n${email}\n${code}`).digest("base64url");

/** Six digits, uniform (rejection sampling: no digit string is likelier than another). */
function sixDigits(): string {
  const [n] = crypto.getRandomValues(new Uint32Array(1));
  return (n as number) < 4_294_000_000 ? String((n as number) % 1_000_000).padStart(6, "0") : sixDigits();
}

/** The link's visit when it uses codes; otherwise a 400 that says so. */
async function codeLink(ctx: Ctx, token: string): Promise<SharedVisit> {
  const visit = await viewLink(ctx, token);
  if (!needsEmailCode(visit.link)) throw E.emailCodesNotUsed();
  return visit;
}

/** Counts one request against every limit, or throws 429 without counting (inside the caller's transaction). */
async function countRequest(ctx: Ctx, linkId: string, email: string, now: number): Promise<void> {
  const buckets: [string, Limit][] = [
    ...PER_LINK.map((l) => [`share-code:link:${linkId}:${l.windowMs}`, l] as [string, Limit]),
    // The address is hashed: a bucket should not keep what strangers typed.
    ...PER_ADDRESS.map((l) => [`share-code:address:${sha256Hex(email)}:${l.windowMs}`, l] as [string, Limit]),
  ];
  for (const [bucket, limit] of buckets) {
    const wait = await secondsUntilFree(ctx.db, bucket, limit, now);
    if (wait !== null) throw E.tooManyEmailCodes(wait);
  }
  for (const [bucket] of buckets) await recordHit(ctx.db, bucket, now);
}

/**
 * `POST /api/shared/:token/email-code`: mails a one-time code to a listed address. Every address
 * gets the same answer and is counted the same way (a listed one also gets a code and its mail),
 * so the answer tells no stranger who is on the list. A new code ends the address's earlier ones.
 */
export async function requestEmailCode(ctx: Ctx, token: string, rawEmail: string): Promise<EmailCodeRequested> {
  const { link, set } = await codeLink(ctx, token);
  const email = normal(rawEmail);
  if (!isMailAddress(email)) throw E.invalidEmail();
  if (!mailEnabled(ctx)) throw E.emailCodesUnavailable();
  const now = ctx.clock.now();
  await withTx(ctx.db, async () => {
    await countRequest(ctx, link.id, email, now);
    if (!emailAllowed(link.allowedEmails, email)) return;
    const code = sixDigits();
    const mine = and(eq(shareEmailCodes.linkId, link.id), eq(shareEmailCodes.email, email), isNull(shareEmailCodes.consumedAt));
    await ctx.db.update(shareEmailCodes).set({ consumedAt: now }).where(mine).run();
    await ctx.db
      .insert(shareEmailCodes)
      .values({ id: crypto.randomUUID(), linkId: link.id, email, codeHash: codeHash(ctx, link.id, email, code), createdAt: now, expiresAt: now + CODE_TTL_MS })
      .run();
    const body = composeMail({
      heading: `Your code for “${set.name}”`,
      lines: [
        `Enter this code on the page that asked for it: ${code}`,
        "It works once, within 10 minutes.",
        "Did not ask for it? Ignore this mail: without the code nobody can open the list as you.",
      ],
    });
    await enqueueMail(ctx, { to: email, subject: `${code} is your code for “${headerLine(set.name)}”`, text: body.text, html: body.html, kind: "share_code" });
  });
  return { ok: true, expiresIn: CODE_TTL_MS / 1000 };
}

/**
 * `POST /api/shared/:token/email-code/verify`: the address's latest live code, used once (the
 * conditional update decides, so of many tries at once one wins); a wrong try counts toward
 * MAX_ATTEMPTS and is kept even though the answer is an error. Answers the access grant.
 */
export async function verifyEmailCode(ctx: Ctx, token: string, rawEmail: string, rawCode: string): Promise<EmailCodeGrant> {
  const { link } = await codeLink(ctx, token);
  const email = normal(rawEmail);
  const now = ctx.clock.now();
  const used = await withTx(ctx.db, async () => {
    const row = await ctx.db
      .select()
      .from(shareEmailCodes)
      .where(
        and(
          eq(shareEmailCodes.linkId, link.id),
          eq(shareEmailCodes.email, email),
          isNull(shareEmailCodes.consumedAt),
          gt(shareEmailCodes.expiresAt, now),
          lt(shareEmailCodes.attempts, MAX_ATTEMPTS),
        ),
      )
      .orderBy(desc(shareEmailCodes.createdAt))
      .limit(1)
      .get();
    if (!row) return false;
    const byId = eq(shareEmailCodes.id, row.id);
    if (!constantTimeEqual(row.codeHash, codeHash(ctx, link.id, email, rawCode.trim()))) {
      await ctx.db
        .update(shareEmailCodes)
        .set({ attempts: sql`${shareEmailCodes.attempts} + 1` })
        .where(byId)
        .run();
      return false;
    }
    const live = and(byId, isNull(shareEmailCodes.consumedAt), lt(shareEmailCodes.attempts, MAX_ATTEMPTS));
    return changedRows(await ctx.db.update(shareEmailCodes).set({ consumedAt: now }).where(live).run()) === 1;
  });
  // The list may have changed since the code was sent.
  if (!used || !emailAllowed(link.allowedEmails, email)) throw E.invalidEmailCode();
  const { grant, expiresAt } = issueGrant(ctx, link.id, email, now);
  return { grant, expiresAt: new Date(expiresAt).toISOString() };
}
