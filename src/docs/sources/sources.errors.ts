import { describedError } from "../../shared/errors.ts";

// The docs sources API's refusals (/api/docs/sources), worded like the identity API's
// (`{"error": code, "error_description": text}`): the admin page shows the text.

/** A field of a source refused; the text names the field and what it takes. */
export const invalidSource = (description: string) => describedError(400, "invalid_request", description);
export const sourceNotFound = () => describedError(404, "not_found", "Documentation source not found.");
export const slugTaken = (slug: string) => describedError(409, "conflict", `Another source already uses the slug "${slug}".`);
