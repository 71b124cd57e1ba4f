import { type Static, Type } from "@sinclair/typebox";

// Issue 44: the workspace's mail (notices) and a share link's one-time email codes.

/** `GET /api/workspace/mail`: whether mail is set up here, and the address notices go to (only when verified). */
export const MailStatus = Type.Object({ mail: Type.Boolean(), email: Type.String(), emailVerified: Type.Boolean() });
export type MailStatus = Static<typeof MailStatus>;

/** `POST /api/shared/:token/email-code`: 202, the same whether or not the address is on the list. */
export const EmailCodeRequested = Type.Object({ ok: Type.Literal(true), expiresIn: Type.Integer() });
export type EmailCodeRequested = Static<typeof EmailCodeRequested>;

/** `POST /api/shared/:token/email-code/verify`: the access grant the page sends with `email` as `grant`. */
export const EmailCodeGrant = Type.Object({ grant: Type.String(), expiresAt: Type.String() });
export type EmailCodeGrant = Static<typeof EmailCodeGrant>;
