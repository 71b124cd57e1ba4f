import { AppError } from "../shared/errors.ts";

/**
 * Mail errors carry both wordings: the spec's `{error, code}` where a workspace or settings route
 * answers, RFC 6749's `{error, error_description}` where an identity or admin route does.
 */
const mailError = (code: string, status: number, text: string, description: string, rfcCode: string, detail?: string) =>
  new AppError(code, status, text, detail, { description, rfc6749: { error: rfcCode, description } });

/** Not one plain address: a list, a display name, brackets, or too long. */
export const invalidMailAddress = (field = "address") =>
  mailError("invalid_email_address", 400, "Invalid email address", `The ${field} must be one valid email address.`, "invalid_request", field);

/** A line break or another control character where a header would carry it: header injection. */
export const unsafeMailHeader = (field: string) =>
  mailError(
    "unsafe_mail_header",
    400,
    "Invalid email header",
    `The ${field} holds a line break or another control character, which an email header cannot carry.`,
    "invalid_request",
    field,
  );

/** SMTP is not set up, and the caller asked for mail that must go out. */
export const mailNotConfigured = () =>
  mailError(
    "mail_not_configured",
    409,
    "Mail is not configured",
    "Cairn has no mail server: set CAIRN_SMTP_URL (or CAIRN_SMTP_HOST) and CAIRN_SMTP_FROM, then restart it.",
    "mail_not_configured",
  );
