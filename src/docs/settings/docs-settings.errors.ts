import { describedError } from "../../shared/errors.ts";

/** A docs setting refused (/api/docs/settings), in the docs sources API's words; the text names the field. */
export const invalidDocsSetting = (description: string) => describedError(400, "invalid_request", description);
