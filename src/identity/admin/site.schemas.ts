import { t } from "elysia";

/** A page of the instance's teams whose name contains `q`. */
export const SiteTeamsQuery = t.Object({
  q: t.Optional(t.String({ maxLength: 200 })),
  limit: t.Optional(t.Numeric({ minimum: 1, maximum: 200, multipleOf: 1 })),
  offset: t.Optional(t.Numeric({ minimum: 0, maximum: 1_000_000_000, multipleOf: 1 })),
});
