import { forgetHits, LOGIN_FAILURES } from "../../access/rate-limit.ts";
import type { AppContext } from "../../context/context.ts";
import { countAttempt } from "./attempt-limit.ts";
import { verifyPassword } from "./passwords.ts";
import type { UserRow } from "./users.table.ts";

/**
 * Checks the password of someone already signed in (before a password change, or to turn a
 * factor off). Wrong guesses count like failed sign-ins, so a stolen session cannot be used to
 * guess the password at leisure.
 */
export async function checkPasswordAgain(ctx: Pick<AppContext, "db" | "clock">, user: UserRow, password: string): Promise<boolean> {
  const bucket = `reauth:${user.id}`;
  const now = ctx.clock.now();
  // Counted before the slow hash, as sign-in does: parallel guesses each see the others' hits
  // (checked and counted in one transaction), and a right password takes its hit back.
  const pending = await countAttempt(ctx.db, bucket, LOGIN_FAILURES, now);
  if (!(await verifyPassword(password, user.passwordHash))) return false;
  await forgetHits(ctx.db, [pending]);
  return true;
}
