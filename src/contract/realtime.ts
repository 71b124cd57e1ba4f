import type { Comment, Member, SetFields, SortItem, Todo } from "./workspace-records.ts";

/** Spec 2 section 6 and ARCHITECTURE section 4 "Realtime": every event a team's stream carries. */
export const REALTIME_EVENT_TYPES = [
  "todo:created",
  "todo:updated",
  "todo:deleted",
  "todo:reordered",
  "todo:moved",
  "todo:assigned",
  "comment:created",
  "comment:deleted",
  "set:created",
  "set:updated",
  "set:deleted",
  "set:reordered",
  "set:imported",
] as const;
export type RealtimeEventType = (typeof REALTIME_EVENT_TYPES)[number];

/** Spec 2 section 6: what a share link's public page hears, for its own set only. */
export const SHARED_SET_EVENT_TYPES: readonly RealtimeEventType[] = [
  "todo:created",
  "todo:updated",
  "todo:deleted",
  "todo:reordered",
  "todo:moved",
  "todo:assigned",
  "set:updated",
  "set:deleted",
  "set:imported",
];

/** `id` is a per-team increasing sequence; a reconnecting client resumes after it. */
export type RealtimeEvent = { id: number; type: RealtimeEventType; teamId: string; setId: string | null; data: unknown; at: string };

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

/** The message (WebSocket) or event (SSE) that says the replay gap is too old: reload everything. */
export const REFETCH_MESSAGE = "refetch";
