import { t } from "elysia";

export const RegisterBody = t.Object({
  username: t.String({ maxLength: 64 }),
  email: t.String({ maxLength: 320 }),
  password: t.String({ maxLength: 4096 }),
  name: t.Optional(t.String({ maxLength: 200 })),
  invite: t.Optional(t.String({ maxLength: 200 })),
});

export const LoginBody = t.Object({
  login: t.String({ minLength: 1, maxLength: 320 }),
  password: t.String({ maxLength: 4096 }),
  /** A second factor sent with the password: signs in at once, and passes a paused account. */
  code: t.Optional(t.String({ maxLength: 16 })),
  backup_code: t.Optional(t.String({ maxLength: 32 })),
});

const WebAuthnResponse = t.Object({ id: t.String({ maxLength: 1024 }) }, { additionalProperties: t.Unknown() });

export const PasskeyProof = t.Object({ challenge_id: t.String({ maxLength: 64 }), response: WebAuthnResponse });

export const MfaBody = t.Object({
  mfa_token: t.String({ maxLength: 128 }),
  code: t.Optional(t.String({ maxLength: 16 })),
  backup_code: t.Optional(t.String({ maxLength: 32 })),
  passkey: t.Optional(PasskeyProof),
});

export const MfaPasskeyOptionsBody = t.Object({ mfa_token: t.String({ maxLength: 128 }) });

export const RegistrationQuery = t.Object({ invite: t.Optional(t.String({ maxLength: 200 })) });
