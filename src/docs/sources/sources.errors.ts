import { describedError } from "../../shared/errors.ts";

// The docs sources API's refusals (/api/docs/sources), worded like the identity API's
// (`{"error": code, "error_description": text}`): the admin page shows the text.

/** A field of a source refused; the text names the field and what it takes. */
export const invalidSource = (description: string) => describedError(400, "invalid_request", description);
export const sourceNotFound = () => describedError(404, "not_found", "Documentation source not found.");
export const slugTaken = (slug: string) => describedError(409, "conflict", `Another source already uses the slug "${slug}".`);
/** The built-in guide is part of Cairn: an admin may hide or show it, not change or remove it. */
export const guideReadOnly = () =>
  describedError(400, "invalid_request", 'The built-in guide is part of Cairn: it cannot be edited or removed, only hidden ({"hidden": true}) or shown again.');
