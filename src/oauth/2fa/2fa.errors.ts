import { describedError } from "../../shared/errors.ts";

// The 2FA re-confirmation API's own refusals (spec 1 sections 3.3 and 4.4), in RFC 6749 JSON.

/** A client past its challenges this minute. */
export const tooManyChallenges = (perMinute: number, retryAfterSeconds: number) =>
  describedError(429, "too_many_requests", `At most ${perMinute} challenges a minute per client; try again later.`, {
    "retry-after": String(retryAfterSeconds),
  });

/** Unknown, answered and expired alike: the page sends the person back to the app. */
export const challengeGone = () =>
  describedError(404, "not_found", "This confirmation request has expired or was already answered. Go back to the application and start again.");

/** Spec 1 section 3.3 "an error occurs": closed on opening, with the app's access_denied redirect for the page. */
export const challengeExpired = (redirectTo: string, clientName: string | null) =>
  describedError(410, "expired", "This confirmation request expired before it was answered. Go back to the application and start again.", undefined, {
    redirect_to: redirectTo,
    client_name: clientName,
  });
