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
import { invitations } from "./invites.table.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "config">;

const MAX_HOURS = 24 * 90;

const view = (i: typeof invitations.$inferSelect, now: number): Invite => ({
  id: i.id,
  email: i.email,
  created_at: i.createdAt,
  expires_at: i.expiresAt,
  used_at: i.usedAt,
  used_by: i.usedBy,
  status: i.usedAt !== null ? "used" : i.expiresAt <= now ? "expired" : "pending",
});

export function listInvites(ctx: Ctx) {
  const now = ctx.clock.now();
  return ctx.db
    .select()
    .from(invitations)
    .orderBy(desc(invitations.createdAt))
    .all()
    .map((i) => view(i, now));
}

/** An invitation: one use, expiring, optionally for one email. The code is answered once. */
export function createInvite(ctx: Ctx, adminId: string, input: { email?: string | null; expires_in_hours?: number }) {
  const hours = input.expires_in_hours ?? 24 * 7;
  if (!Number.isInteger(hours) || hours < 1 || hours > MAX_HOURS) throw badInput(`Expiry is 1 to ${MAX_HOURS} hours.`);
  const email = input.email ? normalizeEmail(input.email) : null;
  const code = randomToken(18);
  const now = ctx.clock.now();
  const row = {
    id: randomToken(9),
    codeHash: sha256Hex(code),
    email,
    createdBy: adminId,
    createdAt: now,
    expiresAt: now + hours * 3600_000,
    usedAt: null,
    usedBy: null,
  };
  ctx.db.insert(invitations).values(row).run();
  audit(ctx, { actorUserId: adminId, action: "invite.created", details: { id: row.id, email } });
  return { invite: view(row, now), code, url: `${ctx.config.issuer}/register?invite=${code}` };
}

export function deleteInvite(ctx: Ctx, adminId: string, id: string): void {
  if (changedRows(ctx.db.delete(invitations).where(eq(invitations.id, id)).run()) !== 1) throw missing("Invitation");
  audit(ctx, { actorUserId: adminId, action: "invite.deleted", details: { id } });
}

/**
 * Whether accounts are open, by invitation or closed, and the invitation `code` names while it is
 * usable: the register page fills in and locks the one email it admits (registration enforces it).
 */
export function registrationInfo(ctx: Ctx, code: string | undefined): RegistrationInfo {
  const registration = getSiteConfig(ctx).registration;
  if (!code?.trim()) return { registration, invite: null };
  const row = ctx.db
    .select({ email: invitations.email, expiresAt: invitations.expiresAt })
    .from(invitations)
    .where(and(eq(invitations.codeHash, sha256Hex(code.trim())), isNull(invitations.usedAt), gt(invitations.expiresAt, ctx.clock.now())))
    .get();
  return { registration, invite: row ? { email: row.email, expires_at: row.expiresAt } : null };
}
