import { eq } from "drizzle-orm";
import { describeDevice } from "../../access/client-info.ts";
import { users } from "../users/users.table.ts";
import { type AccountMailCtx, mailAccount, pageUrl, utcTime } from "./account-mail.ts";
import type { NoticeOrigin } from "./notice-origin.ts";

/** What happened to an account that its holder hears of at their address (issue 44 item 5). */
export type SecurityEvent =
  | { type: "password_changed" }
  | { type: "password_reset"; secondFactorsRemoved: boolean }
  | { type: "totp_enabled" }
  | { type: "totp_disabled" }
  | { type: "backup_codes_regenerated" }
  | { type: "passkey_added"; name: string }
  | { type: "passkey_removed"; name: string }
  | { type: "new_device" }
  | { type: "email_changed"; from: string; to: string }
  | { type: "account_disabled" }
  | { type: "account_deleted" };

type Wording = { subject: string; what: string; extra?: string };

function wording(event: SecurityEvent, account: string): Wording {
  switch (event.type) {
    case "password_changed":
      return { subject: "your password was changed", what: `The password of your account ${account} was changed.` };
    case "password_reset":
      return {
        subject: "your password was reset",
        what: `The password of your account ${account} was reset with a recovery link, and every device signed in to it was signed out.`,
        extra: event.secondFactorsRemoved
          ? "Its authenticator app, backup codes and passkeys were removed."
          : "Its authenticator app and passkeys stay: signing in still needs them.",
      };
    case "totp_enabled":
      return { subject: "an authenticator app was added", what: `An authenticator app was set up as a second factor of your account ${account}.` };
    case "totp_disabled":
      return {
        subject: "your authenticator app was removed",
        what: `The authenticator app and backup codes of your account ${account} were removed: signing in no longer asks for a code.`,
      };
    case "backup_codes_regenerated":
      return { subject: "new backup codes were made", what: `New backup codes were made for your account ${account}; the old ones no longer work.` };
    case "passkey_added":
      return { subject: "a passkey was added", what: `A passkey named “${event.name}” was added to your account ${account}.` };
    case "passkey_removed":
      return { subject: "a passkey was removed", what: `The passkey named “${event.name}” was removed from your account ${account}.` };
    case "new_device":
      return {
        subject: "a sign-in from a new browser",
        what: `Your account ${account} was signed in from a browser or device it was not signed in from before.`,
      };
    case "email_changed":
      return {
        subject: "your email address was changed",
        what: `The email address of your account ${account} was changed from ${event.from} to ${event.to}. This address no longer gets its messages.`,
      };
    case "account_disabled":
      return { subject: "your account was disabled", what: `Your account ${account} was disabled: it cannot sign in, and every device was signed out.` };
    case "account_deleted":
      return { subject: "your account was deleted", what: `Your account ${account} was deleted, with everything it held here.` };
  }
}

function who(origin: NoticeOrigin): string {
  if (origin.by === "admin") return "By: an administrator of this site.";
  if (origin.by === "host") return "By: an administrator, on the server's command line.";
  return `Browser: ${describeDevice(origin.userAgent)}${origin.ip ? `, from the address ${origin.ip}` : ""}.`;
}

/**
 * Queues the notice of `event` to the account's address, in the caller's transaction (the one
 * that makes the change), before an account that is going away is gone. Says what happened,
 * when, from which browser, and what to do if it was not the holder.
 */
export async function securityNotice(ctx: AccountMailCtx, userId: string, event: SecurityEvent, origin: NoticeOrigin): Promise<boolean> {
  const user = await ctx.db.select({ email: users.email, name: users.name, username: users.username }).from(users).where(eq(users.id, userId)).get();
  if (!user) return false;
  const { subject, what, extra } = wording(event, `“${user.username}”`);
  const forgot = pageUrl(ctx, "/forgot-password");
  const account = pageUrl(ctx, "/account");
  const gone = event.type === "account_disabled" || event.type === "account_deleted";
  const ifNotYou = gone
    ? "If you did not expect this, ask an administrator of this site."
    : `If it was not you, someone may have your password or a signed-in device: choose a new password at ${forgot}, then review your sessions, second factors and passkeys at ${account}.`;
  return mailAccount(
    ctx,
    // An account's deletion is told after it: that message belongs to no account.
    { id: event.type === "account_deleted" ? null : userId, email: event.type === "email_changed" ? event.from : user.email, name: user.name },
    {
      kind: "security_notice",
      subject,
      heading: subject.charAt(0).toUpperCase() + subject.slice(1),
      lines: [
        what,
        ...(extra ? [extra] : []),
        `When: ${utcTime(ctx.clock.now())}.`,
        who(origin),
        gone ? "" : "If this was you, there is nothing to do.",
        ifNotYou,
      ].filter(Boolean),
      action: gone ? undefined : { label: "Review your account", url: account },
    },
  );
}
