import { t } from "elysia";

export const PasskeyRegisterBody = t.Object({
  challenge_id: t.String({ maxLength: 64 }),
  name: t.String({ maxLength: 200 }),
  response: t.Object({ id: t.String({ maxLength: 1024 }) }, { additionalProperties: t.Unknown() }),
});

export const NameBody = t.Object({ name: t.String({ maxLength: 200 }) });
