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

/** `id` is a per-team increasing sequence; a reconnecting client resumes after it. `data` per type: api/realtime-events.ts. */
export type RealtimeEvent = { id: number; type: RealtimeEventType; teamId: string; setId: string | null; data: unknown; at: string };

/** The message (WebSocket) or event (SSE) that says the replay gap is too old: reload everything. */
export const REFETCH_MESSAGE = "refetch";
