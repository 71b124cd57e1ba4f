import { describedError } from "../../shared/errors.ts";

/** A verification link that is unknown, used, expired, replaced, or for an address the account no longer has: one answer for all. */
export const verificationLinkNotValid = () =>
  describedError(
    400,
    "invalid_verification_link",
    "This verification link cannot be used: it was already used, it expired, a newer link replaced it, or the account's email changed since. Ask for a new one on your account page.",
  );

/** Asking for a link for an address already verified. */
export const alreadyVerified = () => describedError(409, "email_already_verified", "Your email address is already verified.");
