import { type Static, Type } from "@sinclair/typebox";

/** `POST /api/oauth/admin/users/:id/reset-link` (201): the one-use link, answered this once. Times are milliseconds. */
export const ResetLink = Type.Object({ url: Type.String(), expires_at: Type.Number() });
export type ResetLink = Static<typeof ResetLink>;
