import { htmlErrorPage } from "../../shared/error-page.ts";

/** The URL to continue to is no protected app: nobody is sent there (no open redirect). */
export const notProtectedAppPage = (description: string) =>
  htmlErrorPage(400, "Cairn cannot send you there", ["The address you were coming back to is not an app this Cairn protects, so you were not sent on."], {}, [
    `invalid_request: ${description}`,
  ]);

/** The app asks for a second factor and the account has none: signing in again would only come back here. */
export const noSecondFactorPage = () =>
  htmlErrorPage(
    403,
    "This app needs two-step verification",
    [
      "The app you opened lets people in only after a sign-in with a second factor, and your account has none yet.",
      "Add an authenticator app or a passkey on your account page, then open the app again.",
    ],
    {},
    [],
    { href: "/account", label: "Open your account" },
  );
