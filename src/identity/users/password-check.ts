import { assertUnderLimit, LOGIN_FAILURES, recordHit } from "../../auth/rate-limit.ts";
import type { AppContext } from "../../context.ts";
import { verifyPassword } from "./passwords.ts";
import type { UserRow } from "./users.table.ts";

/**
 * Checks the password of someone already signed in (before a password change, or to turn a
 * factor off). Wrong guesses count like failed sign-ins, so a stolen session cannot be used to
 * guess the password at leisure.
 */
export async function checkPasswordAgain(ctx: Pick<AppContext, "db" | "clock">, user: UserRow, password: string): Promise<boolean> {
  const bucket = `reauth:${user.id}`;
  assertUnderLimit(ctx.db, bucket, LOGIN_FAILURES, ctx.clock.now());
  if (await verifyPassword(password, user.passwordHash)) return true;
  recordHit(ctx.db, bucket, ctx.clock.now());
  return false;
}
