import type { MailKind } from "../../../src/contract/mail.ts";

/** What each kind of message is, in words for the admin page's outbox list. */
export const MAIL_KIND_LABELS: Record<MailKind, string> = {
  test: "Test email",
  verify_email: "Address verification",
  password_reset: "Password reset",
  reset_link: "Reset link from an admin",
  invite: "Invitation",
  security_notice: "Security notice",
  todo_assigned: "Todo assigned",
  todo_comment: "Comment on a todo",
  due_digest: "Daily digest of due todos",
  share_code: "Share link code",
};
