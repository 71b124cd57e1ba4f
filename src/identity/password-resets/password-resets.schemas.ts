import { t } from "elysia";

export const ResetPasswordBody = t.Object({
  token: t.String({ maxLength: 200 }),
  password: t.String({ maxLength: 4096 }),
});

/** A username or an email, as sign-in takes it. */
export const ForgotPasswordBody = t.Object({ login: t.String({ minLength: 1, maxLength: 320 }) });
