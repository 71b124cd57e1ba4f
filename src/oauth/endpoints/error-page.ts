import { htmlErrorPage } from "../../shared/error-page.ts";

/** The page a user sees when an authorization request cannot go back to its client. */
export function authorizeErrorPage(error: string, description: string): Response {
  return htmlErrorPage(
    400,
    "This sign-in request cannot continue",
    ["The application sent a request Cairn cannot accept, so you were not sent back to it. Tell the application's owner what is below."],
    {},
    [`${error}: ${description}`],
  );
}

/**
 * The page a user sees when an application's sign-out request cannot be accepted (OIDC
 * RP-Initiated Logout 1.0 section 4: an unregistered post_logout_redirect_uri is not followed).
 * Nothing was changed; the person may still sign out of Cairn on its own page.
 */
export function logoutErrorPage(error: string, description: string): Response {
  return htmlErrorPage(
    400,
    "This sign-out request cannot continue",
    [
      "The application asked Cairn to sign you out and then send you somewhere Cairn cannot check, so nothing was changed: you are still signed in to Cairn.",
      "You can sign out of Cairn yourself below. Tell the application's owner what is below, so they can fix their app.",
    ],
    {},
    [`${error}: ${description}`],
    { href: "/logout", label: "Sign out of Cairn" },
  );
}
