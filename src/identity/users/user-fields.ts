import { isMailAddress } from "../../contract/mail.ts";
import { badInput } from "./identity.errors.ts";

const USERNAME = /^[a-z0-9_-]{3,32}$/;
// Deliberately loose: one @, no spaces, a dot in the domain. The mailbox decides the rest.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Lowercased and trimmed; [a-z0-9_-], 3 to 32 characters. */
export function normalizeUsername(raw: string): string {
  const username = raw.trim().toLowerCase();
  if (!USERNAME.test(username)) throw badInput("A username is 3 to 32 characters: lowercase letters, digits, '_' or '-'.");
  return username;
}

/** Trimmed and lowercased, so one mailbox is one account; one plain address that mail can reach (issue 44). */
export function normalizeEmail(raw: string): string {
  const email = raw.trim().toLowerCase();
  if (email.length > 254 || !EMAIL.test(email) || !isMailAddress(email)) throw badInput("Enter a valid email address.");
  return email;
}

/** An absolute https URL (http only for a loopback host), or "" to clear. */
export function normalizePictureUrl(raw: string): string {
  const value = raw.trim();
  if (value === "") return "";
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw badInput("The picture must be an absolute URL.");
  }
  const loopback = url.hostname === "localhost" || url.hostname === "127.0.0.1" || url.hostname === "[::1]";
  if (!(url.protocol === "https:" || (url.protocol === "http:" && loopback)) || url.username || url.password)
    throw badInput("The picture must be an https URL.");
  if (value.length > 2048) throw badInput("The picture URL is too long.");
  return url.href;
}

export function normalizeName(raw: string): string {
  const name = raw.trim();
  if (name.length > 100) throw badInput("The name must be at most 100 characters.");
  return name;
}
