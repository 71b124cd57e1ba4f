/** What the mail module keeps for one app: how to wake its sender, where one runs. */
export type MailRuntime = {
  /** Asks this process's sender to look at the outbox now; nothing when no sender runs here. */
  wake(): void;
  /** The sender that answers `wake` (mail/sender.ts); null when it stops. */
  setSender(sender: { wake(): void } | null): void;
};

declare module "../context/context.ts" {
  interface AppContext {
    mail: MailRuntime;
  }
}

export function createMailRuntime(): MailRuntime {
  let sender: { wake(): void } | null = null;
  return {
    wake: () => sender?.wake(),
    setSender: (next) => {
      sender = next;
    },
  };
}
