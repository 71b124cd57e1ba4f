import { t } from "elysia";
import { MAX_PAGE } from "./list-answer.ts";

const BOUND = 1_000_000_000;

/** The list's query fields (todos and share links): `sort` for the whole list, `limit` and `cursor` for a page. */
export const listQueryFields = () => ({
  sort: t.Optional(t.Union([t.Literal("position"), t.Literal("due")])),
  limit: t.Optional(t.Numeric({ minimum: 1, maximum: MAX_PAGE, multipleOf: 1 })),
  cursor: t.Optional(t.String({ maxLength: 400 })),
});

// A factory, not constants: Elysia writes into the hook and schema objects a route is given, so
// two apps in one process (tests) must not share them.
export function todoSchemas() {
  const Id = t.String({ minLength: 1, maxLength: 200 });
  const Title = t.String({ maxLength: 1000 });
  const Order = t.Integer({ minimum: -BOUND, maximum: BOUND });
  // Only strings or null here: the service checks them, answering its own texts (todos.errors.ts).
  const DueDate = t.Optional(t.Nullable(t.String({ maxLength: 40 })));
  const DueTime = t.Optional(t.Nullable(t.String({ maxLength: 40 })));
  // Titles and targets are optional here so the service answers with the spec's own 400 text.
  return {
    CreateTodoBody: t.Object({ title: t.Optional(Title), parentId: t.Optional(t.Nullable(Id)), dueDate: DueDate, dueTime: DueTime }),
    PatchTodoBody: t.Object({
      title: t.Optional(Title),
      completed: t.Optional(t.Boolean()),
      sortOrder: t.Optional(Order),
      dueDate: DueDate,
      dueTime: DueTime,
    }),
    ReorderBody: t.Object({ items: t.Optional(t.Array(t.Object({ id: Id, sortOrder: Order }), { maxItems: 10_000 })), setId: t.Optional(Id) }),
    MoveBody: t.Object({ targetSetId: t.Optional(t.String({ maxLength: 200 })), insertAt: t.Optional(t.Union([t.Literal("top"), t.Literal("bottom")])) }),
    AssigneesBody: t.Object({ userIds: t.Array(t.String({ maxLength: 200 }), { maxItems: 1000 }) }),
    SetParams: t.Object({ teamId: t.String(), setId: Id }),
    ListQuery: t.Object(listQueryFields()),
    TodoParams: t.Object({ teamId: t.String(), id: Id }),
  };
}
