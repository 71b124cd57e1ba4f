import { describedError } from "../../shared/errors.ts";

/** A reset link that is unknown, used, expired or replaced by a newer one: one answer for all, so it tells nothing. */
export const resetLinkNotValid = () =>
  describedError(
    400,
    "invalid_reset_link",
    "This password reset link cannot be used: it was already used, it expired, or a newer link replaced it. Ask for a new one (“Forgot password?” on the sign-in page, or an administrator).",
  );
