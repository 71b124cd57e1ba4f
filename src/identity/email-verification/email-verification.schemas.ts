import { t } from "elysia";

export const ConfirmEmailBody = t.Object({ token: t.String({ maxLength: 200 }) });
