import { signal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import { useLocation } from "preact-iso";
import { authApi, type User } from "../api/auth.ts";
import { ApiError, onSessionLost } from "../api/http.ts";

/** The signed-in user: undefined while the first check runs, null when signed out. */
export const currentUser = signal<User | null | undefined>(undefined);

// A page whose session was revoked elsewhere falls back to signed out (and, if it needs a user, to sign-in).
onSessionLost(() => {
  if (currentUser.value) currentUser.value = null;
});

/** Asks the server who is signed in (the cookie is HttpOnly, so only it knows). */
export async function loadSession(): Promise<User | null> {
  try {
    currentUser.value = (await authApi.session()).user;
  } catch (e) {
    // Only a 401 means signed out; a network failure keeps what we knew.
    if (!(e instanceof ApiError) || e.status === 401) currentUser.value = null;
    else if (currentUser.value === undefined) currentUser.value = null;
  }
  return currentUser.value ?? null;
}

export function signedIn(user: User): void {
  currentUser.value = user;
}

export async function signOut(): Promise<void> {
  try {
    await authApi.logout();
  } finally {
    currentUser.value = null;
  }
}

/** A same-origin path to go back to after signing in, or null for anything else. */
export function safeReturnTo(value: string | null | undefined): string | null {
  if (!value?.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return null;
  try {
    const url = new URL(value, location.origin);
    return url.origin === location.origin ? url.pathname + url.search + url.hash : null;
  } catch {
    return null;
  }
}

/** Goes where a signed-in user should be: server paths (/api/...) need a full page load. */
export function continueTo(path: string, route: (url: string, replace?: boolean) => void): void {
  if (path.startsWith("/api/")) location.assign(path);
  else route(path, true);
}

/**
 * The signed-in user for a page that needs one; a signed-out visitor is sent to the sign-in page
 * and back here afterwards. Null while loading or redirecting.
 */
export function useRequiredUser(): User | null {
  const { url, route } = useLocation();
  const user = currentUser.value;
  useEffect(() => {
    if (user === null) route(`/login?return_to=${encodeURIComponent(url)}`, true);
  }, [user]);
  return user ?? null;
}
