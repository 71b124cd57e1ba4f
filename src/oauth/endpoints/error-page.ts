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
