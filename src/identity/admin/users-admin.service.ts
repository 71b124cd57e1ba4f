import { and, count, eq, isNull, ne } from "drizzle-orm";
import type { AppContext } from "../../context/context.ts";
import { withTx } from "../../db/tx.ts";
import { audit } from "../audit/audit.service.ts";
import { badInput, missing } from "../users/identity.errors.ts";
import { revokeAllCredentials } from "./credentials.service.ts";
import { type UserRow, users } from "../users/users.table.ts";
import type { AccountMailCtx } from "../notices/account-mail.ts";
import { BY_ADMIN } from "../notices/notice-origin.ts";
import { securityNotice } from "../notices/security-notices.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "accountEvents"> & AccountMailCtx;

/** A user as the admin lists and answers them. */
export const adminUserView = (u: Pick<UserRow, "id" | "username" | "email" | "name" | "role" | "emailVerified" | "disabledAt" | "createdAt">) => ({
  id: u.id,
  username: u.username,
  email: u.email,
  name: u.name,
  role: u.role,
  email_verified: u.emailVerified,
  disabled: u.disabledAt !== null,
  created_at: u.createdAt,
});

/** Active administrators other than `exceptId`: the last one is neither demoted, disabled nor deleted. */
export async function activeAdmins(ctx: Pick<Ctx, "db">, exceptId: string): Promise<number> {
  return (
    (
      await ctx.db
        .select({ n: count() })
        .from(users)
        .where(and(eq(users.role, "admin"), isNull(users.disabledAt), ne(users.id, exceptId)))
        .get()
    )?.n ?? 0
  );
}

/**
 * Role, enabled state and whether the address is verified (an administrator vouches for it).
 * Disabling ends every credential of the user at once (sessions, personal and OAuth tokens,
 * workspace sessions), so enabling the account again revives none of them, and tells the
 * account's address. The last active admin cannot be demoted or disabled.
 */
export async function updateUserAsAdmin(
  ctx: Ctx,
  adminId: string,
  userId: string,
  patch: { role?: "admin" | "user"; disabled?: boolean; email_verified?: boolean },
) {
  return withTx(ctx.db, async () => {
    const user = await ctx.db.select().from(users).where(eq(users.id, userId)).get();
    if (!user) throw missing("User");
    const losesAdmin = user.role === "admin" && user.disabledAt === null && (patch.role === "user" || patch.disabled === true);
    if (losesAdmin && (await activeAdmins(ctx, user.id)) === 0) throw badInput("This is the last active administrator.");
    const set: Partial<UserRow> = { updatedAt: ctx.clock.now() };
    if (patch.role !== undefined && patch.role !== user.role) set.role = patch.role;
    if (patch.disabled !== undefined && patch.disabled !== (user.disabledAt !== null)) set.disabledAt = patch.disabled ? ctx.clock.now() : null;
    if (patch.email_verified !== undefined && patch.email_verified !== user.emailVerified) set.emailVerified = patch.email_verified;
    await ctx.db.update(users).set(set).where(eq(users.id, user.id)).run();
    if (set.disabledAt) {
      await revokeAllCredentials(ctx, user.id, "disabled");
      await securityNotice(ctx, user.id, { type: "account_disabled" }, BY_ADMIN);
    }
    await audit(ctx, {
      actorUserId: adminId,
      action: "admin.user_updated",
      targetUserId: user.id,
      details: { role: set.role, disabled: patch.disabled, email_verified: set.emailVerified },
    });
    return adminUserView({ ...user, ...set });
  });
}
