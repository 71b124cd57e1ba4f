import { t } from "elysia";

/** `POST /api/oauth/admin/mail/test`: where to send the test message (checked again as a header value). */
export const TestMailBody = t.Object({ to: t.String({ minLength: 1, maxLength: 254 }) });
