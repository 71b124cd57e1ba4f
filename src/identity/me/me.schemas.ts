import { t } from "elysia";

export const ProfilePatchBody = t.Object({
  name: t.Optional(t.String({ maxLength: 200 })),
  picture: t.Optional(t.String({ maxLength: 4096 })),
  email: t.Optional(t.String({ maxLength: 320 })),
});

export const PasswordBody = t.Object({
  current_password: t.String({ maxLength: 4096 }),
  new_password: t.String({ maxLength: 4096 }),
});

/** Proof that the account holder is present: the password, or a TOTP or backup code (ARCHITECTURE section 4b). */
export const DeleteAccountBody = t.Object({
  password: t.Optional(t.String({ maxLength: 4096 })),
  code: t.Optional(t.String({ maxLength: 32 })),
});
