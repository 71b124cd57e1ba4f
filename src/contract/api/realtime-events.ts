import type { RealtimeEvent, RealtimeEventType } from "../realtime.ts";
import type { Comment, Member, SetFields, SortItem, Todo } from "./workspace-records.ts";

// Spec 2 section 6: the events' payloads, made of the records the API answers.

/** What `data` holds, per event type. */
export type RealtimeEventData = {
  "todo:created": Todo;
  /** Null when the todo was deleted before it could be read back (its todo:deleted follows). */
  "todo:updated": Todo | null;
  /** The todo's sub-todos and comments went with it. */
  "todo:deleted": { id: string };
  "todo:reordered": { setId: string; items: SortItem[] };
  /** Sent to both sets; `todo` is the moved root only, not its subtree. */
  "todo:moved": { todo: Todo | null; fromSetId: string; toSetId: string };
  "todo:assigned": { todoId: string; assignees: Member[] };
  "comment:created": Comment;
  "comment:deleted": { id: string; todoId: string };
  /** Without the list-only counts (an imported new set is not empty). */
  "set:created": SetFields;
  "set:updated": SetFields;
  "set:deleted": { id: string };
  "set:reordered": { items: SortItem[] };
  /** One event for a whole import into an existing set: viewers refetch. */
  "set:imported": { setId: string; mode: "append" | "replace"; imported: number };
};

/** A typed event, as a client reads it off the wire. */
export type EventOf<T extends RealtimeEventType> = Omit<RealtimeEvent, "type" | "data"> & { type: T; data: RealtimeEventData[T] };
