import { t } from "elysia";

export const ResetPasswordBody = t.Object({
  token: t.String({ maxLength: 200 }),
  password: t.String({ maxLength: 4096 }),
});
