import type { AppContext } from "../context/context.ts";
import { CLUSTER_TOPICS } from "../shared/cluster-topics.ts";
import { createMailRuntime } from "./mail.context.ts";
import { registerMailPurges } from "./outbox.purge.ts";

/** What the mail module adds at boot: its runtime, the wake-up its senders listen for, and its purge. */
export function bootMail(ctx: AppContext): void {
  ctx.mail = createMailRuntime();
  // Mail enqueued in a worker reaches the primary's sender, which alone sends (src/main.ts).
  ctx.cluster.on(CLUSTER_TOPICS.mailWake, () => ctx.mail.wake());
  registerMailPurges(ctx);
}
