import { type Static, Type } from "@sinclair/typebox";
import { ShareCapabilities, Todo } from "./workspace-records.ts";
import { orNull } from "./common.ts";

// Spec 2 sections 2.4, 4.3 and 4.4: share links and their public side.

/** Spec 2 section 2.4. The token is "" for a member who may not manage the set's links. */
export const ShareLink = Type.Composite([
  Type.Object({ id: Type.String(), setId: Type.String(), setName: Type.Optional(Type.String()), token: Type.String(), name: Type.String() }),
  ShareCapabilities,
  Type.Object({ allowedEmails: Type.String(), createdBy: Type.String(), createdAt: Type.String() }),
  /** Issue 44: a listed visitor also needs a one-time code mailed to their address. */
  Type.Object({ requireEmailCode: Type.Boolean() }),
]);
export type ShareLink = Static<typeof ShareLink>;

/** `setName` only in the team-wide list. */
export const LinkList = Type.Object({ links: Type.Array(ShareLink) });
export type LinkList = Static<typeof LinkList>;
export const CreatedLink = Type.Object({ link: ShareLink });
export type CreatedLink = Static<typeof CreatedLink>;

/** `GET /api/shared/:token`: a link without canView still says what it allows, with no todos. */
export const SharedSet = Type.Object({
  /** `timezone`: the zone the todos' due dates are read in (the set's, else the team's default). */
  set: Type.Object({ id: Type.String(), name: Type.String(), timezone: Type.String() }),
  permissions: ShareCapabilities,
  requiresEmail: Type.Boolean(),
  /** Issue 44: the email must be proven with a mailed code (`POST /api/shared/:token/email-code`). */
  requiresEmailCode: Type.Boolean(),
  todos: Type.Array(Todo),
  /** With `limit` or `cursor` (issue 43): where the next page starts, null on the last; absent otherwise. */
  nextCursor: Type.Optional(orNull(Type.String())),
});
export type SharedSet = Static<typeof SharedSet>;
