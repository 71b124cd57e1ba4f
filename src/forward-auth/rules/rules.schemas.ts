import { t } from "elysia";

// The rules API's bodies (ARCHITECTURE 4b): types here; what a value may be, rules.validate.ts
// (so every refusal of a value is `invalid_rule` naming its field).
const Strings = t.Array(t.String());
const HeaderName = t.Union([t.String(), t.Null()]);

const fields = {
  host: t.String(),
  path_prefixes: t.Optional(Strings),
  methods: t.Optional(Strings),
  allow: t.Object({ everyone: t.Optional(t.Boolean()), teams: t.Optional(Strings), groups: t.Optional(Strings), admins: t.Optional(t.Boolean()) }),
  require_mfa: t.Optional(t.Boolean()),
  bypass_paths: t.Optional(Strings),
  headers: t.Optional(t.Object({ user: t.Optional(HeaderName), email: t.Optional(HeaderName), name: t.Optional(HeaderName), groups: t.Optional(HeaderName) })),
  position: t.Optional(t.Integer()),
};

/** `POST /api/oauth/admin/forward-auth/rules`: `host` and `allow` required. */
export const CreateRuleBody = t.Object(fields);
/** `PATCH .../rules/:id`: any field; one given replaces it whole (`allow`, `headers` included). */
export const PatchRuleBody = t.Partial(t.Object(fields));
