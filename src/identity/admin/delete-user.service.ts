import { eq, sql } from "drizzle-orm";
import type { AppContext } from "../../context/context.ts";
import { changedRows } from "../../db/changes.ts";
import { withTx } from "../../db/tx.ts";
import { redactUserFromAudit } from "../audit/audit-redact.ts";
import { audit } from "../audit/audit.service.ts";
import { socialAccounts } from "../social/social.table.ts";
import { lastActiveAdministrator, missing, teamsWithoutOwner } from "../users/identity.errors.ts";
import { type UserRow, users } from "../users/users.table.ts";
import { invitations } from "../invites/invites.table.ts";
import { revokeAllCredentials } from "./credentials.service.ts";
import { activeAdmins } from "./users-admin.service.ts";
import type { AccountMailCtx } from "../notices/account-mail.ts";
import { BY_ADMIN, type NoticeOrigin } from "../notices/notice-origin.ts";
import { securityNotice } from "../notices/security-notices.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "accountEvents"> & AccountMailCtx;

/** Who asked: an administrator (by id), or the person themselves from a browser (told in the notice). */
type Deleter = { kind: "admin"; adminId: string } | { kind: "self"; origin: NoticeOrigin };

/** Teams where the person is the only direct owner: deleting them would leave each without one. */
function soleOwnedTeams(ctx: Pick<Ctx, "db">, userId: string): Promise<{ id: string; name: string }[]> {
  return ctx.db.all<{ id: string; name: string }>(sql`
    SELECT t.id, t.name FROM team_members m JOIN teams t ON t.id = m.team_id
    WHERE m.user_id = ${userId} AND m.role = 'owner'
      AND NOT EXISTS (SELECT 1 FROM team_members o WHERE o.team_id = m.team_id AND o.role = 'owner' AND o.user_id <> m.user_id)
    ORDER BY t.name, t.id`);
}

/**
 * Why the account cannot be deleted now, as the 409 to answer, or null. The last active
 * administrator stays (as for demoting and disabling). A team keeps an owner (the rule of
 * members.service.ts): the teams the person alone owns are named, so someone else can be made
 * owner, or the team deleted, first; their todos belong to their members, so they are never
 * deleted as a side effect.
 */
export async function deletionBlocker(ctx: Pick<Ctx, "db">, user: UserRow) {
  if (user.role === "admin" && user.disabledAt === null && (await activeAdmins(ctx, user.id)) === 0) return lastActiveAdministrator();
  const teams = await soleOwnedTeams(ctx, user.id);
  if (teams.length === 0) return null;
  return teamsWithoutOwner(teams);
}

/**
 * Deletes an account for good (spec 1 section 2.3 `admin:users:delete`). First every credential
 * ends as when it is disabled (sessions with their back-channel logouts, personal access tokens,
 * the apps' grants, workspace sessions), and the workspace forgets what it keeps about the person
 * (account events, reason "deleted"). Then the user row goes, and with it, by ON DELETE CASCADE,
 * every row of theirs: passkeys, authenticator and backup codes, linked accounts, GPG keys,
 * domains, team and group memberships, consents, grants and tokens, pending codes and
 * challenges, and the apps they registered (an app nobody owns any more could have its secret and
 * redirect URIs changed by no one). The audit log keeps its entries, by the account's id, without
 * the person's username, email or logins. Workspace todos and comments stay with their team.
 * The user is read and deleted inside one transaction whose DELETE decides: of concurrent
 * deletions one succeeds and the others find no user (404).
 */
export async function deleteUser(ctx: Ctx, userId: string, by: Deleter): Promise<void> {
  await withTx(ctx.db, async () => {
    const user = await ctx.db.select().from(users).where(eq(users.id, userId)).get();
    if (!user) throw missing("User");
    const blocker = await deletionBlocker(ctx, user);
    if (blocker) throw blocker;
    const logins = await ctx.db
      .select({ login: socialAccounts.login, email: socialAccounts.email })
      .from(socialAccounts)
      .where(eq(socialAccounts.userId, userId))
      .all();
    // Told while the address is still known; the message is no account's, so it outlives this one.
    await securityNotice(ctx, userId, { type: "account_deleted" }, by.kind === "admin" ? BY_ADMIN : by.origin);
    await revokeAllCredentials(ctx, userId, "deleted");
    await redactUserFromAudit(ctx, userId, [user.username, user.email, ...logins.flatMap((l) => [l.login, l.email])]);
    // An invitation records the address it was for: once used by this person, that is theirs.
    await ctx.db.update(invitations).set({ email: null }).where(eq(invitations.usedBy, userId)).run();
    if (changedRows(await ctx.db.delete(users).where(eq(users.id, userId)).run()) !== 1) throw missing("User");
    await audit(ctx, {
      actorUserId: by.kind === "admin" ? by.adminId : userId,
      action: "user.deleted",
      targetUserId: userId,
      details: { by: by.kind },
    });
  });
}
