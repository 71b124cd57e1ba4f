import { EXTRA_MAIL_HEADERS, hasControlCharacters, isMailAddress } from "../contract/mail.ts";
import { invalidMailAddress, unsafeMailHeader } from "./mail.errors.ts";

const MAX_SUBJECT = 250;
const MAX_NAME = 200;
const MAX_HEADER_VALUE = 2000;

/** What goes into a header, checked: no control character (header injection), within its length. */
function headerText(field: string, text: string, max: number): string {
  if (hasControlCharacters(text) || text.length > max) throw unsafeMailHeader(field);
  return text;
}

/** One plain address, or unsafe_mail_header / invalid_email_address. */
export function checkMailAddress(field: string, address: string): string {
  if (hasControlCharacters(address)) throw unsafeMailHeader(field);
  if (!isMailAddress(address)) throw invalidMailAddress(field);
  return address;
}

/**
 * Everything of a message that ends up in a header, checked before it is stored: a recipient, a
 * name, a subject or a header value with CR/LF (or any control character) is refused, never
 * cleaned, so what is sent is what the caller meant. Headers other than RFC 8058's are refused too.
 */
export function checkMailFields(mail: { to: string; toName?: string | null; subject: string; headers?: Record<string, string> }): void {
  checkMailAddress("recipient address", mail.to);
  if (mail.toName) headerText("recipient name", mail.toName, MAX_NAME);
  headerText("subject", mail.subject, MAX_SUBJECT);
  for (const [name, value] of Object.entries(mail.headers ?? {})) {
    if (!(EXTRA_MAIL_HEADERS as readonly string[]).includes(name)) throw unsafeMailHeader(`header ${JSON.stringify(name.slice(0, 40))}`);
    headerText(`${name} header`, value, MAX_HEADER_VALUE);
  }
}
