import type { Visitor } from "../../api/share-links.ts";

/** The email a visitor typed for a restricted link, and its code's grant, kept for this tab only (sessionStorage, per token). */
const key = (token: string) => `cairn.shared-email.${token}`;
const grantKey = (token: string) => `cairn.shared-grant.${token}`;

export function rememberedVisitor(token: string): Visitor {
  try {
    return { email: sessionStorage.getItem(key(token)) ?? undefined, grant: sessionStorage.getItem(grantKey(token)) ?? undefined };
  } catch {
    return {};
  }
}

export function rememberVisitor(token: string, { email, grant }: Visitor): void {
  try {
    if (email) sessionStorage.setItem(key(token), email);
    else sessionStorage.removeItem(key(token));
    if (grant) sessionStorage.setItem(grantKey(token), grant);
    else sessionStorage.removeItem(grantKey(token));
  } catch {
    // Storage can be disabled; the visitor types the email again after a reload.
  }
}
