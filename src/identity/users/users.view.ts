import type { UserRow } from "./users.table.ts";

/** The public shape of a user (ARCHITECTURE section 4). */
export function userView(user: UserRow) {
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    email_verified: user.emailVerified,
    name: user.name,
    picture: user.pictureUrl,
    role: user.role,
  };
}
