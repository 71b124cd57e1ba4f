/**
 * What happened to an account that other parts must act on at once: the OAuth side ends the
 * user's grants, the workspace (a relying party living in this process) ends its own sessions.
 * Listeners run one after another inside the caller's transaction, awaited, so what they write
 * commits or rolls back together with its cause.
 */
export type AccountEvent =
  /** These IdP sessions ended (sign-out, revocation, a password change, disabling, recovery). */
  | { type: "sessions_ended"; userId: string; sids: string[] }
  /** The password changed: tokens issued before it must not outlive it. */
  | { type: "password_changed"; userId: string }
  /**
   * Every credential of the account ended: an administrator disabled it, it was recovered from the
   * host, or it is being deleted (then each part also forgets what it keeps about the person).
   */
  | { type: "credentials_revoked"; userId: string; reason: "disabled" | "recovered" | "deleted" }
  /**
   * The user's teams or their role in one changed (added, removed, role changed, a team moved or
   * deleted): `teams` is every team they hold a role in now, with that role, as `/me/teams` says.
   */
  | { type: "teams_changed"; userId: string; teams: { id: string; name: string; role: string }[] };

type Listener = (event: AccountEvent) => Promise<void> | void;

export type AccountEvents = {
  on(listener: Listener): void;
  emit(event: AccountEvent): Promise<void>;
};

export function createAccountEvents(): AccountEvents {
  const listeners: Listener[] = [];
  return {
    on: (listener) => void listeners.push(listener),
    async emit(event) {
      for (const listener of listeners) await listener(event);
    },
  };
}
