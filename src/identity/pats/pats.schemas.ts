import { t } from "elysia";

export const PatCreateBody = t.Object({
  name: t.String({ maxLength: 200 }),
  scopes: t.Array(t.String({ maxLength: 64 }), { maxItems: 64 }),
  expires_in_days: t.Optional(t.Union([t.Integer(), t.Null()])),
});
