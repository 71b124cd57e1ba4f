import { signal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import { useLocation } from "preact-iso";
import { authApi, type User } from "../api/auth.ts";
import { workspaceApi } from "../api/workspace.ts";
import { ApiError, onSessionLost } from "../api/http.ts";
import { shellHints } from "./shell-hints.ts";

/** The signed-in user: undefined while the first check runs, null when signed out. */
export const currentUser = signal<User | null | undefined>(undefined);

// A page whose session was revoked elsewhere falls back to signed out (and, if it needs a user, to sign-in).
onSessionLost(() => {
  if (currentUser.value) currentUser.value = null;
});

// The page came without a session cookie: nobody to ask about, until a sign-in in this page.
let noSessionCookie = shellHints.signed_in === false;

/** Asks the server who is signed in (the cookie is HttpOnly, so only it knows). */
export async function loadSession(): Promise<User | null> {
  if (noSessionCookie) {
    currentUser.value = null;
    return null;
  }
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
  noSessionCookie = false;
  currentUser.value = user;
}

/**
 * The one Sign out (user menu and workspace alike): ends the workspace session, then the identity
 * provider's. The workspace answers the IdP's logout address (RP-initiated, with its ID token as
 * hint) when it had a session: the browser goes there, and the IdP ends its session and sends it
 * to the signed-out home. Without one, this instance's session is ended here. Answers true when
 * the browser is leaving for the IdP's logout.
 */
export async function signOut(): Promise<boolean> {
  const workspace = await workspaceApi.logout().catch(() => null);
  const idpLogout = workspace?.redirect_to ?? null;
  try {
    // The IdP's logout elsewhere (another Cairn) does not end a session held here as well.
    if (currentUser.value && (idpLogout === null || new URL(idpLogout, location.href).origin !== location.origin)) await authApi.logout();
  } finally {
    currentUser.value = null;
  }
  if (idpLogout === null) return false;
  location.assign(idpLogout);
  return true;
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

/**
 * An app behind forward auth that sent the browser here (an absolute URL of another origin):
 * Cairn's continue endpoint takes it back there with the app's cookie, if a rule names its host
 * (the server decides: no open redirect). Null for anything else.
 */
export function forwardAuthReturn(value: string | null | undefined): string | null {
  if (!value || !/^https?:\/\//i.test(value)) return null;
  try {
    if (new URL(value).origin === location.origin) return null;
  } catch {
    return null;
  }
  return `/api/authz/continue?url=${encodeURIComponent(value)}`;
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
