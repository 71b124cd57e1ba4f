import { tooManyAttempts } from "../../access/access.errors.ts";
import { clientStartGuard } from "../../access/start-guard.ts";
import { addressKey } from "../../access/window-limit.ts";
import type { AppContext } from "../../context/context.ts";
import { deviceAuthorizations } from "./device-authorizations.table.ts";

/** Device requests one address may start per minute with a public client's id: a device starts one at a time. */
export const DEVICE_STARTS_PER_ADDRESS = 30;
/** Device requests one client may start per minute, and keep stored at most (each lives 10 minutes). */
export const DEVICE_STARTS_PER_CLIENT = 120;
export const DEVICE_PENDING_PER_CLIENT = 1_000;
/** User codes one signed-in person may try per minute (looked up or answered): enough for typos, far too few to guess. */
export const DEVICE_GUESSES_PER_USER = 20;
/** ...and one address, for every account behind it. */
export const DEVICE_GUESSES_PER_ADDRESS = 60;

/** The gate in front of `POST /api/oauth/device_authorization`: every request writes a row. Throws 429 `too_many_requests`. */
export const deviceStartGuard = (ctx: Parameters<typeof clientStartGuard>[0]) =>
  clientStartGuard(
    ctx,
    {
      perMinute: DEVICE_STARTS_PER_ADDRESS,
      table: deviceAuthorizations,
      expiresAt: deviceAuthorizations.expiresAt,
      perClient: { column: deviceAuthorizations.clientId, perMinute: DEVICE_STARTS_PER_CLIENT, maxPending: DEVICE_PENDING_PER_CLIENT },
    },
    "device authorization requests",
  );

/**
 * RFC 8628 section 5.1: a user code is short, so the codes anyone may try are bounded. Looking a
 * code up and answering it draw on one budget, per person and per address: otherwise the
 * answer (404 or not) would be a second, unlimited oracle. Throws 429 `too_many_attempts`.
 */
export function deviceGuessBudget(ctx: Pick<AppContext, "clock" | "access">) {
  const perUser = ctx.access.windows("device-guesses:user", { max: DEVICE_GUESSES_PER_USER, windowMs: 60_000 });
  const perAddress = ctx.access.windows("device-guesses:address", { max: DEVICE_GUESSES_PER_ADDRESS, windowMs: 60_000 });
  return async (userId: string, ip: string): Promise<void> => {
    const now = ctx.clock.now();
    const wait = (await perUser.hit(userId, now)) ?? (await perAddress.hit(addressKey(ip), now));
    if (wait !== null) throw tooManyAttempts(wait);
  };
}
