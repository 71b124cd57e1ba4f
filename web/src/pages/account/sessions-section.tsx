import { useState } from "preact/hooks";
import { type DeviceSession, meApi } from "../../api/me.ts";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { ConfirmDialog } from "../../components/confirm-dialog.tsx";
import { toast } from "../../lib/toasts.ts";
import { formatAgo, formatTime } from "../../lib/format.ts";
import { useAction } from "../../lib/use-action.ts";
import { useLoad } from "../../lib/use-load.ts";

// `mfa` only says that two of these were used, which the list already shows.
const METHODS: Record<string, string> = { pwd: "password", otp: "code", webauthn: "passkey", ext: "external sign-in" };

/** Where the account is signed in, with a way to end any of those sessions. */
export function SessionsSection() {
  const list = useLoad(() => meApi.sessions());
  const { busy, run } = useAction();
  const [confirmAll, setConfirmAll] = useState(false);
  const sessions = list.data ?? [];
  const others = sessions.filter((s) => !s.current).length;

  const revoke = (s: DeviceSession) =>
    run(
      s.sid,
      async () => {
        await meApi.revokeSession(s.sid);
        await list.reload();
      },
      "Session ended.",
    );

  return (
    <Card
      id="sessions"
      title="Sessions"
      actions={
        others > 0 ? (
          <Button variant="secondary" onClick={() => setConfirmAll(true)}>
            Sign out other sessions
          </Button>
        ) : null
      }
    >
      {list.error ? <p class="form-error">{list.error}</p> : null}
      {!list.data && !list.error ? <p class="muted">Loading…</p> : null}
      <ul class="rows" aria-label="Signed-in sessions">
        {sessions.map((s) => (
          <li key={s.sid} class="row">
            <div class="grow">
              <strong>{s.device || "Unknown device"}</strong> {s.current ? <span class="badge badge-success">This device</span> : null}
              <span class="row-meta">
                {s.ip || "unknown address"} · signed in {formatTime(s.created_at)} with{" "}
                {s.amr
                  .filter((m) => m !== "mfa")
                  .map((m) => METHODS[m] ?? m)
                  .join(" + ") || "unknown method"}{" "}
                · active {formatAgo(s.last_seen_at)}
              </span>
            </div>
            {s.current ? null : (
              <Button
                variant="secondary"
                busy={busy === s.sid}
                onClick={() => void revoke(s)}
                aria-label={`End the session on ${s.device || "unknown device"} (${s.ip})`}
              >
                End session
              </Button>
            )}
          </li>
        ))}
      </ul>
      {list.data && others === 0 ? <p class="empty-inline">You are signed in only here.</p> : null}
      <ConfirmDialog
        open={confirmAll}
        title="Sign out other sessions?"
        confirmLabel="Sign out others"
        onClose={() => setConfirmAll(false)}
        onConfirm={async () => {
          const n = await meApi.revokeOtherSessions();
          toast(`Signed out ${n} other session${n === 1 ? "" : "s"}.`, "success");
          await list.reload();
        }}
      >
        <p>Every other browser and device signed in to your account will have to sign in again. This one stays signed in.</p>
      </ConfirmDialog>
    </Card>
  );
}
