import { ApiError } from "../../api/http.ts";

/** The fields of a new account, shared by the register page and the setup wizard's first step. */
export type AccountForm = { username: string; email: string; name: string; password: string };
export type AccountErrors = Partial<Record<keyof AccountForm | "invite" | "form", string>>;

export const EMPTY_ACCOUNT: AccountForm = { username: "", email: "", name: "", password: "" };

const USERNAME = /^[a-z0-9_-]{3,32}$/;

/** The checks the server makes too, so most mistakes are caught before a round trip. */
export function validateAccount(form: AccountForm): AccountErrors {
  const errors: AccountErrors = {};
  const username = form.username.trim().toLowerCase();
  if (!username) errors.username = "Choose a username.";
  else if (!USERNAME.test(username)) errors.username = "3 to 32 characters: letters, digits, _ or -.";
  if (!form.email.trim()) errors.email = "Enter your email address.";
  else if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(form.email.trim())) errors.email = "That does not look like an email address.";
  if (form.password.length < 10) errors.password = "Use at least 10 characters.";
  else if ([username, form.email.trim().toLowerCase()].includes(form.password.toLowerCase()))
    errors.password = "The password cannot be your username or email.";
  return errors;
}

/** Puts a server refusal next to the field it is about, or above the form. */
export function accountErrorFrom(e: unknown): AccountErrors {
  const message = (e as Error).message;
  if (!(e instanceof ApiError) || e.status >= 500 || e.status === 0) return { form: message };
  if (/invitation/i.test(message)) return { invite: message };
  if (/password/i.test(message)) return { password: message };
  if (/username/i.test(message)) return { username: message };
  if (/e-?mail/i.test(message)) return { email: message };
  return { form: message };
}
