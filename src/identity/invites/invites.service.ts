import { and, desc, eq, gt, isNull } from "drizzle-orm";
import type { Invite } from "../../contract/api/admin.ts";
import type { RegistrationInfo } from "../../contract/api/sign-up.ts";
import type { AppContext } from "../../context/context.ts";
import { changedRows } from "../../db/changes.ts";
import { randomToken, sha256Hex } from "../../shared/crypto.ts";
import { audit } from "../audit/audit.service.ts";
import { getSiteConfig } from "../site-config/site-config.ts";
import { badInput, missing } from "../users/identity.errors.ts";
import { normalizeEmail } from "../users/user-fields.ts";
import { withTx } from "../../db/tx.ts";
import { mailNotConfigured } from "../../mail/mail.errors.ts";
import { mailEnabled } from "../../mail/outbox.service.ts";
import { type AccountMailCtx, mailAccount, utcTime } from "../notices/account-mail.ts";
import { invitations } from "./invites.table.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "config"> & AccountMailCtx;

const MAX_HOURS = 24 * 90;

const view = (i: typeof invitations.$inferSelect, now: number): Invite => ({
  id: i.id,
  email: i.email,
  created_at: i.createdAt,
  expires_at: i.expiresAt,
  used_at: i.usedAt,
  used_by: i.usedBy,
  mailed_at: i.mailedAt,
  status: i.usedAt !== null ? "used" : i.expiresAt <= now ? "expired" : "pending",
});

export async function listInvites(ctx: Ctx) {
  const now = ctx.clock.now();
  return (await ctx.db.select().from(invitations).orderBy(desc(invitations.createdAt)).all()).map((i) => view(i, now));
}

/**
 * An invitation: one use, expiring, optionally for one email. The code is answered once. With
 * `send_email` the link is also mailed to that address (issue 44), in the transaction that stores
 * it; registering with that address then starts verified.
 */
export async function createInvite(ctx: Ctx, adminId: string, input: { email?: string | null; expires_in_hours?: number; send_email?: boolean }) {
  const hours = input.expires_in_hours ?? 24 * 7;
  if (!Number.isInteger(hours) || hours < 1 || hours > MAX_HOURS) throw badInput(`Expiry is 1 to ${MAX_HOURS} hours.`);
  const email = input.email ? normalizeEmail(input.email) : null;
  const send = input.send_email === true;
  if (send && email === null) throw badInput("Sending the invitation by email needs the address to send it to.");
  if (send && !mailEnabled(ctx)) throw mailNotConfigured();
  const code = randomToken(18);
  const now = ctx.clock.now();
  const url = `${ctx.config.issuer}/register?invite=${code}`;
  const row = {
    id: randomToken(9),
    codeHash: sha256Hex(code),
    email,
    createdBy: adminId,
    createdAt: now,
    expiresAt: now + hours * 3600_000,
    usedAt: null,
    usedBy: null,
    mailedAt: send ? now : null,
  };
  await withTx(ctx.db, async () => {
    await ctx.db.insert(invitations).values(row).run();
    if (send) await mailInvite(ctx, email as string, url, row.expiresAt);
    await audit(ctx, { actorUserId: adminId, action: "invite.created", details: { id: row.id, email, mailed: send } });
  });
  return { invite: view(row, now), code, url };
}

async function mailInvite(ctx: Ctx, email: string, url: string, expiresAt: number): Promise<void> {
  const site = (await ctx.siteBranding()).site_name;
  await mailAccount(
    ctx,
    { id: null, email, name: "" },
    {
      kind: "invite",
      subject: "you are invited",
      heading: "You are invited",
      lines: [
        `An administrator of ${site} (${ctx.config.issuer}) invites you to make an account there, with this address.`,
        `The link works once, until ${utcTime(expiresAt)}.`,
        "If you do not know why you got this, ignore it.",
      ],
      action: { label: "Make my account", url },
    },
  );
}

export async function deleteInvite(ctx: Ctx, adminId: string, id: string): Promise<void> {
  if (changedRows(await ctx.db.delete(invitations).where(eq(invitations.id, id)).run()) !== 1) throw missing("Invitation");
  await audit(ctx, { actorUserId: adminId, action: "invite.deleted", details: { id } });
}

/**
 * Whether accounts are open, by invitation or closed, and the invitation `code` names while it is
 * usable: the register page fills in and locks the one email it admits (registration enforces it).
 */
export async function registrationInfo(ctx: Ctx, code: string | undefined): Promise<RegistrationInfo> {
  const registration = (await getSiteConfig(ctx)).registration;
  const mail = mailEnabled(ctx);
  if (!code?.trim()) return { registration, invite: null, mail };
  const row = await ctx.db
    .select({ email: invitations.email, expiresAt: invitations.expiresAt })
    .from(invitations)
    .where(and(eq(invitations.codeHash, sha256Hex(code.trim())), isNull(invitations.usedAt), gt(invitations.expiresAt, ctx.clock.now())))
    .get();
  return { registration, invite: row ? { email: row.email, expires_at: row.expiresAt } : null, mail };
}
