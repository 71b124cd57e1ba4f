import { and, asc, eq, isNotNull, ne } from "drizzle-orm";
import type { AppContext } from "../../context/context.ts";
import { randomToken } from "../../shared/crypto.ts";
import { withTx } from "../../db/tx.ts";
import { audit } from "../audit/audit.service.ts";
import { badInput, conflict, missing } from "../users/identity.errors.ts";
import { userDomains } from "./domains.table.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "dns">;
type DomainRow = typeof userDomains.$inferSelect;

/** Where the proof lives: a TXT record on this name, holding `cairn-verification=<token>`. */
export const CHALLENGE_LABEL = "_cairn-challenge";
const MAX_DOMAINS = 20;

/** A host name as typed, in its lowercased ASCII form, or null: at least two labels, no IP address, no port or path. */
export function normalizeDomain(input: string): string | null {
  const typed = input.trim().replace(/\.$/, "");
  if (typed === "" || typed.length > 253 || /[\s/:@?#\\]/.test(typed)) return null;
  let host: string;
  try {
    host = new URL(`http://${typed}`).hostname;
  } catch {
    return null;
  }
  const labels = host.split(".");
  if (labels.length < 2 || /^\d+$/.test(labels.at(-1) as string) || host.startsWith("[")) return null;
  return labels.every((l) => /^(?!-)[a-z0-9-]{1,63}(?<!-)$/.test(l)) ? host : null;
}

export function domainView(row: DomainRow) {
  return {
    id: row.id,
    domain: row.domain,
    verified: row.verifiedAt !== null,
    verified_at: row.verifiedAt,
    last_checked_at: row.lastCheckedAt,
    txt_record: { name: `${CHALLENGE_LABEL}.${row.domain}`, value: `cairn-verification=${row.token}` },
  };
}

export async function listDomains(ctx: Pick<Ctx, "db">, userId: string): Promise<DomainRow[]> {
  return ctx.db.select().from(userDomains).where(eq(userDomains.userId, userId)).orderBy(asc(userDomains.createdAt)).all();
}

/** The user a verified domain belongs to (WebFinger's `acct:<user>@<domain>`), or null. */
export async function verifiedOwner(ctx: Pick<Ctx, "db">, domain: string): Promise<string | null> {
  return (
    (
      await ctx.db
        .select({ userId: userDomains.userId })
        .from(userDomains)
        .where(and(eq(userDomains.domain, domain.toLowerCase()), isNotNull(userDomains.verifiedAt)))
        .get()
    )?.userId ?? null
  );
}

export async function addDomain(ctx: Ctx, userId: string, input: string): Promise<DomainRow> {
  const domain = normalizeDomain(input);
  if (domain === null) throw badInput("Enter a domain name such as example.com (no scheme, port or path).");
  const mine = await listDomains(ctx, userId);
  if (mine.some((d) => d.domain === domain)) throw conflict(`${domain} is already on your account.`);
  if (mine.length >= MAX_DOMAINS) throw badInput(`At most ${MAX_DOMAINS} domains per account.`);
  const row = { id: randomToken(12), userId, domain, token: randomToken(24), verifiedAt: null, lastCheckedAt: null, createdAt: ctx.clock.now() };
  await ctx.db.insert(userDomains).values(row).run();
  return row;
}

async function ownDomain(ctx: Pick<Ctx, "db">, userId: string, id: string): Promise<DomainRow> {
  const row = await ctx.db
    .select()
    .from(userDomains)
    .where(and(eq(userDomains.id, id), eq(userDomains.userId, userId)))
    .get();
  if (!row) throw missing("Domain");
  return row;
}

export async function removeDomain(ctx: Ctx, userId: string, id: string): Promise<void> {
  await ownDomain(ctx, userId, id);
  await ctx.db.delete(userDomains).where(eq(userDomains.id, id)).run();
}

/** What DNS says about a domain's proof: there, absent (a definite answer), or unknown (the lookup failed). */
async function proofState(ctx: Pick<Ctx, "dns">, row: DomainRow): Promise<"present" | "absent" | "unknown"> {
  try {
    const records = await ctx.dns.resolveTxt(`${CHALLENGE_LABEL}.${row.domain}`);
    return records.some((chunks) => chunks.join("") === `cairn-verification=${row.token}`) ? "present" : "absent";
  } catch (e) {
    const code = (e as { code?: string }).code;
    return code === "ENOTFOUND" || code === "ENODATA" ? "absent" : "unknown";
  }
}

/**
 * "Check now": the TXT record is looked up; when it holds the token the domain is verified for
 * this account, and no longer for any other (a domain is verified for one account at a time: the
 * latest proof of control wins).
 */
export async function verifyDomain(ctx: Ctx, userId: string, id: string): Promise<DomainRow> {
  const row = await ownDomain(ctx, userId, id);
  const state = await proofState(ctx, row);
  const now = ctx.clock.now();
  if (state === "unknown") throw badInput("DNS could not be asked just now. Try again in a minute.");
  await withTx(ctx.db, async () => {
    if (state === "present") {
      await ctx.db
        .update(userDomains)
        .set({ verifiedAt: null })
        .where(and(eq(userDomains.domain, row.domain), ne(userDomains.id, row.id)))
        .run();
      await ctx.db
        .update(userDomains)
        .set({ verifiedAt: row.verifiedAt ?? now, lastCheckedAt: now })
        .where(eq(userDomains.id, row.id))
        .run();
      if (row.verifiedAt === null) await audit(ctx, { actorUserId: userId, action: "domain.verified", targetUserId: userId, details: { domain: row.domain } });
    } else await ctx.db.update(userDomains).set({ verifiedAt: null, lastCheckedAt: now }).where(eq(userDomains.id, row.id)).run();
  });
  if (state === "absent")
    throw badInput(`No TXT record ${CHALLENGE_LABEL}.${row.domain} holds the value yet. DNS changes can take a while to show; try again later.`);
  return ownDomain(ctx, userId, id);
}

/** The periodic re-check: a verified domain whose record is gone (a definite answer) is verified no more. */
export async function recheckDomains(ctx: Ctx): Promise<number> {
  const verified = await ctx.db.select().from(userDomains).where(isNotNull(userDomains.verifiedAt)).all();
  let lost = 0;
  for (const row of verified) {
    const state = await proofState(ctx, row);
    if (state === "unknown") continue;
    const now = ctx.clock.now();
    await ctx.db
      .update(userDomains)
      .set(state === "present" ? { lastCheckedAt: now } : { verifiedAt: null, lastCheckedAt: now })
      .where(eq(userDomains.id, row.id))
      .run();
    if (state === "absent") lost++;
  }
  return lost;
}
