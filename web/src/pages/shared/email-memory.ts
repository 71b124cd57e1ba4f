/** The email a visitor typed for a restricted link, kept for this tab only (sessionStorage, per token). */
const key = (token: string) => `cairn.shared-email.${token}`;

export function rememberedEmail(token: string): string | undefined {
  try {
    return sessionStorage.getItem(key(token)) ?? undefined;
  } catch {
    return undefined;
  }
}

export function rememberEmail(token: string, email: string | undefined): void {
  try {
    if (email) sessionStorage.setItem(key(token), email);
    else sessionStorage.removeItem(key(token));
  } catch {
    // Storage can be disabled; the visitor types the email again after a reload.
  }
}
