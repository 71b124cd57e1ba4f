// The mail Cairn sends (issue 44): pure data and checks shared by the server and the web app.

/** Every kind of message, so the admin page can name what sits in the outbox. */
export const MAIL_KINDS = [
  "test",
  "verify_email",
  "password_reset",
  "reset_link",
  "invite",
  "security_notice",
  "todo_assigned",
  "todo_comment",
  "due_digest",
  "share_code",
] as const;
export type MailKind = (typeof MAIL_KINDS)[number];

/** An outbox row's state: waiting (or between retries), handed to the server now, accepted by it, or given up. */
export const MAIL_STATES = ["pending", "sending", "sent", "failed"] as const;
export type MailState = (typeof MAIL_STATES)[number];

/** The headers a caller may add to a message: RFC 8058 one-click unsubscribe, nothing else. */
export const EXTRA_MAIL_HEADERS = ["List-Unsubscribe", "List-Unsubscribe-Post"] as const;

/** C0 and C1 controls, DEL, and the Unicode line and paragraph separators: none belongs in a header. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** Whether `text` holds a character that could end a header line or hide in one. */
export const hasControlCharacters = (text: string): boolean => CONTROL.test(text);

// One mailbox, nothing a header parser could read as a list, a comment or a display name:
// RFC 5322 atext (and non-ASCII, RFC 6532) dot-separated before the @, host name labels after it.
const LOCAL = /^[\p{L}\p{N}!#$%&'*+/=?^_`{|}~-]+(\.[\p{L}\p{N}!#$%&'*+/=?^_`{|}~-]+)*$/u;
const DOMAIN = /^([\p{L}\p{N}]([\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?\.)+[\p{L}\p{N}]([\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?$/u;

/** A plain address `local@domain` (no name, no brackets, no second address), at most 254 characters. */
export function isMailAddress(address: string): boolean {
  const at = address.lastIndexOf("@");
  if (address.length > 254 || at < 1) return false;
  const local = address.slice(0, at);
  return local.length <= 64 && LOCAL.test(local) && DOMAIN.test(address.slice(at + 1));
}
