import { clientStartGuard } from "../../access/start-guard.ts";
import { pushedRequests } from "./pushed-requests.table.ts";

/** Requests one address may push per minute with a public client's id: as many as signed-out authorization requests. */
export const PUSHES_PER_ADDRESS = 60;
/** Requests one client may push per minute, and keep stored at most (each lives 90 seconds). */
export const PUSHES_PER_CLIENT = 300;
export const PUSHED_PENDING_PER_CLIENT = 1_000;

/** The gate in front of `POST /api/oauth/par`: every push writes a row. Throws 429 `too_many_requests`. */
export const pushGuard = (ctx: Parameters<typeof clientStartGuard>[0]) =>
  clientStartGuard(
    ctx,
    {
      perMinute: PUSHES_PER_ADDRESS,
      table: pushedRequests,
      expiresAt: pushedRequests.expiresAt,
      perClient: { column: pushedRequests.clientId, perMinute: PUSHES_PER_CLIENT, maxPending: PUSHED_PENDING_PER_CLIENT },
    },
    "pushed authorization requests",
  );
