import { t } from "elysia";

/** Proof that the account holder is present: a current TOTP code or the password. */
export const ReauthBody = t.Object({
  code: t.Optional(t.String({ maxLength: 16 })),
  password: t.Optional(t.String({ maxLength: 4096 })),
});

export const CodeBody = t.Object({ code: t.String({ maxLength: 16 }) });
