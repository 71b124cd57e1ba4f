import { useLocation } from "preact-iso";
import { currentUser, signOut } from "../lib/session.ts";
import { toast } from "../lib/toasts.ts";

/** The top bar's right side: who is signed in and where they can go, or a Sign in link. */
export function UserMenu() {
  const { path, route } = useLocation();
  const user = currentUser.value;
  if (user === undefined) return null;
  if (user === null)
    return path === "/login" || path === "/setup" ? null : (
      <nav class="topnav" aria-label="Account">
        <a href={`/login${path === "/" ? "" : `?return_to=${encodeURIComponent(path)}`}`}>Sign in</a>
      </nav>
    );
  const link = (href: string, label: string) => (
    <a href={href} aria-current={path === href || path.startsWith(`${href}/`) ? "page" : undefined}>
      {label}
    </a>
  );
  return (
    <nav class="topnav" aria-label="Account">
      {link("/account", "Account")}
      {link("/teams", "Teams")}
      {link("/apps", "Apps")}
      {user.role === "admin" ? link("/admin", "Admin") : null}
      <span class="topnav-user" title={user.email}>
        {user.name || user.username}
      </span>
      <button
        type="button"
        class="btn btn-ghost"
        onClick={() => {
          route("/");
          signOut().then(
            (leaving) => leaving || toast("You are signed out.", "success"),
            (e: Error) => toast(e.message, "error"),
          );
        }}
      >
        Sign out
      </button>
    </nav>
  );
}
