import type { AppContext } from "../context/context.ts";
import { durable } from "../db/tx.ts";
import { claimNext, markFailed, markSent, nextDueAt, retryWaitingNow } from "./outbox.repo.ts";
import type { MailRow } from "./outbox.table.ts";
import type { MailTransport, SendOutcome } from "./transport.ts";

type Ctx = Pick<AppContext, "db" | "clock" | "config" | "log" | "mail">;

/** How long a taken row is the sender's: past every timeout of one try (mail/transport.ts), so a live try never loses it. */
export const LEASE_MS = 10 * 60_000;
/** Without a wake-up (mail another process enqueued, a CLI command), the outbox is looked at this often. */
const POLL_MS = 60_000;
const STOP_GRACE_MS = 10_000;
const FIRST_RETRY_MS = 60_000;
const LONGEST_RETRY_MS = 6 * 3_600_000;
/** A message not accepted within this long of being enqueued is given up: its news is stale. */
export const GIVE_UP_MS = 24 * 3_600_000;

/** The wait before try `attempts + 1`: one minute doubling to six hours, each drawn within ±25 % so retries spread out. */
export function retryDelay(attempts: number, random = Math.random): number {
  const base = Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), LONGEST_RETRY_MS);
  return Math.round(base * (0.75 + random() / 2));
}

/** Records what one try came to; answers when the row is due again, or null (sent or given up). */
export async function recordOutcome(ctx: Pick<Ctx, "db" | "clock" | "log">, row: MailRow, outcome: SendOutcome): Promise<number | null> {
  const now = ctx.clock.now();
  if (outcome.ok) {
    await markSent(ctx.db, row.id, now);
    return null;
  }
  const retryAt = now + retryDelay(row.attempts);
  const giveUp = outcome.permanent || retryAt - row.createdAt > GIVE_UP_MS;
  ctx.log.warn("mail not sent", { id: row.id, kind: row.kind, attempt: row.attempts, gave_up: giveUp, reason: outcome.reason });
  await markFailed(ctx.db, row.id, giveUp ? `${outcome.reason} (gave up)` : outcome.reason, giveUp ? null : retryAt);
  return giveUp ? null : retryAt;
}

/**
 * The outbox's sender, for the process that runs the jobs (one per instance, src/main.ts): it
 * sends what is due one row at a time, is woken when mail is enqueued (the row has committed by
 * then), and otherwise sleeps until the next retry or POLL_MS. At start, what waits for a retry is
 * tried at once. Without SMTP it does nothing. Returns the stop, which lets a try under way finish.
 */
export async function startMailSender(ctx: Ctx): Promise<() => Promise<void>> {
  const smtp = ctx.config.smtp;
  if (!smtp) return async () => {};
  // nodemailer loads with the first message, not at start: idle memory (issue 12) stays as it was.
  let transport: MailTransport | null = null;
  const send = async (row: MailRow) => {
    transport ??= (await import("./transport.ts")).createMailTransport(smtp, ctx.config.issuer);
    return transport.send(row);
  };
  let stopped = false;
  let again = false;
  let running: Promise<void> | null = null;
  let timer: Timer | null = null;

  const sleep = async () => {
    if (stopped) return;
    const next = await nextDueAt(ctx.db);
    // Stopped, or woken, while reading: a drain under way sleeps again when it ends.
    if (stopped || running !== null) return;
    const wait = next === null ? POLL_MS : Math.min(Math.max(next - ctx.clock.now(), 0), POLL_MS);
    timer = setTimeout(wake, wait);
    timer.unref();
  };
  const drain = async () => {
    do {
      again = false;
      for (;;) {
        if (stopped) return;
        const row = await claimNext(ctx.db, ctx.clock.now(), LEASE_MS);
        if (!row) break;
        // The lease and the counted try reach the disk before the message leaves.
        if (!(await durable(ctx.db))) break;
        await recordOutcome(ctx, row, await send(row));
      }
    } while (again);
  };
  function wake(): void {
    if (stopped) return;
    if (running !== null) {
      again = true;
      return;
    }
    if (timer) clearTimeout(timer);
    timer = null;
    running = drain()
      .catch((e: Error) => ctx.log.error("mail sender failed", { error: e.message }))
      .finally(() => {
        running = null;
        // Nothing awaits this callback: a failed read is logged, as a failed drain is.
        void sleep().catch((e: Error) => ctx.log.error("mail sender failed", { error: e.message }));
      });
  }

  await retryWaitingNow(ctx.db, ctx.clock.now());
  ctx.mail.setSender({ wake });
  wake();
  return async () => {
    stopped = true;
    ctx.mail.setSender(null);
    if (timer) clearTimeout(timer);
    // A try under way may finish (and be recorded), within the time a shutdown can spare.
    await Promise.race([running, Bun.sleep(STOP_GRACE_MS)]);
    transport?.close();
  };
}
