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

/** Proof that the account holder is present: a current TOTP code or the password. */
export const ReauthBody = t.Object({
  code: t.Optional(t.String({ maxLength: 16 })),
  password: t.Optional(t.String({ maxLength: 4096 })),
});

export const CodeBody = t.Object({ code: t.String({ maxLength: 16 }) });

export const PasskeyRegisterBody = t.Object({
  challenge_id: t.String({ maxLength: 64 }),
  name: t.String({ maxLength: 200 }),
  response: t.Object({ id: t.String({ maxLength: 1024 }) }, { additionalProperties: t.Unknown() }),
});

export const NameBody = t.Object({ name: t.String({ maxLength: 200 }) });

export const PatCreateBody = t.Object({
  name: t.String({ maxLength: 200 }),
  scopes: t.Array(t.String({ maxLength: 64 }), { maxItems: 64 }),
  expires_in_days: t.Optional(t.Union([t.Integer(), t.Null()])),
});
