import { t } from "elysia";

// Bounds only; trimming, "Name is required", HH:MM and IANA checks live in the service so their
// errors carry the spec's strings.
const Name = t.String({ maxLength: 1000 });
const Id = t.String({ maxLength: 200 });

export const SetParams = t.Object({ teamId: t.String(), setId: Id });

export const CreateSetBody = t.Object({ name: t.Optional(t.String({ maxLength: 1000 })) });

export const PatchSetBody = t.Object({
  name: t.Optional(Name),
  autoRenew: t.Optional(t.Boolean()),
  renewTime: t.Optional(t.String({ maxLength: 10 })),
  timezone: t.Optional(t.String({ maxLength: 100 })),
  splitCompleted: t.Optional(t.Boolean()),
});

export const ReorderSetsBody = t.Object({
  items: t.Optional(t.Array(t.Object({ id: Id, sortOrder: t.Integer({ minimum: -1_000_000_000, maximum: 1_000_000_000 }) }), { maxItems: 10_000 })),
});

export const ExportQuery = t.Object({
  format: t.Optional(t.Union([t.Literal("md"), t.Literal("json"), t.Literal("yaml")])),
  includeComments: t.Optional(t.String({ maxLength: 10 })),
});

// `format` stays a string: an unknown one is `Failed to parse import content` (parseImport).
const ImportFields = {
  format: t.Optional(t.String({ maxLength: 20 })),
  content: t.Optional(t.String()),
  includeComments: t.Optional(t.Boolean()),
};

export const ImportIntoSetBody = t.Object({
  ...ImportFields,
  mode: t.Optional(t.Union([t.Literal("append"), t.Literal("replace")])),
  insertAt: t.Optional(t.Union([t.Literal("top"), t.Literal("bottom")])),
});

export const ImportNewSetBody = t.Object({
  ...ImportFields,
  setName: t.Optional(Name),
  setId: t.Optional(t.String({ format: "uuid" })),
});
