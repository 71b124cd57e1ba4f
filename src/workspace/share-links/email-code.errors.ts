import { AppError } from "../../shared/errors.ts";
import { minutesOf } from "../../shared/wording.ts";

// Issue 44: a share link's one-time email codes. The spec has no such feature; texts follow its wording.

export const emailCodesNeedAllowList = () =>
  new AppError("email_codes_need_allow_list", 400, "Email codes need an allow-list: add the addresses that may open the link");
export const emailCodesNeedMail = () =>
  new AppError("email_codes_need_mail", 400, "Email codes need mail, and this Cairn has no mail server set up (CAIRN_SMTP_URL and CAIRN_SMTP_FROM)");
export const emailCodesNotUsed = () => new AppError("email_codes_not_used", 400, "This link does not use email codes");
export const emailCodesUnavailable = () =>
  new AppError("email_codes_unavailable", 503, "Email codes cannot be sent: mail is not set up on this Cairn any more; tell the person who shared the link");
export const invalidEmail = () => new AppError("invalid_email", 400, "Enter an email address");
/** Wrong, expired, used up or never sent: one answer, so a try says nothing about which addresses are listed. */
export const invalidEmailCode = () => new AppError("invalid_email_code", 400, "Wrong or expired code; ask for a new one if it keeps failing");
export const tooManyEmailCodes = (retryAfterSeconds: number) =>
  new AppError("too_many_email_codes", 429, `Too many codes asked for. Try again in ${minutesOf(retryAfterSeconds)}.`, undefined, {
    headers: { "retry-after": String(Math.max(1, Math.ceil(retryAfterSeconds))) },
  });
