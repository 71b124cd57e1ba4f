import { type SudoWindow, twoFactorApi } from "../../api/two-factor.ts";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { formatTime } from "../../lib/format.ts";
import { useAction } from "../../lib/use-action.ts";
import { useLoad } from "../../lib/use-load.ts";

/**
 * Remembered confirmations ("sudo windows"): for a while after a confirmation with a second
 * factor, an app's later confirmations on that device need only the box ticked. Listed here, and
 * ended early with one click.
 */
export function SudoWindowsSection() {
  const list = useLoad(() => twoFactorApi.sudoWindows());
  const { busy, run } = useAction();
  const windows = list.data ?? [];
  const end = (w: SudoWindow) =>
    run(
      `${w.session_id}:${w.client_id}`,
      async () => {
        await twoFactorApi.endSudo(w.client_id, w.session_id);
        await list.reload();
      },
      `${w.client_name} will ask for a second factor again.`,
    );
  return (
    <Card id="remembered-confirmations" title="Remembered confirmations">
      {list.error ? <p class="form-error">{list.error}</p> : null}
      {!list.data && !list.error ? <p class="muted">Loading…</p> : null}
      <ul class="rows" aria-label="Remembered confirmations">
        {windows.map((w) => (
          <li key={`${w.session_id}:${w.client_id}`} class="row">
            <div class="grow">
              <strong>{w.client_name}</strong> {w.this_device ? <span class="badge badge-success">This device</span> : null}
              <span class="row-meta">
                {w.this_device ? "" : `${w.user_agent || "another device"} · `}no code needed until {formatTime(w.expires_at)}
              </span>
            </div>
            <Button variant="secondary" busy={busy === `${w.session_id}:${w.client_id}`} onClick={() => void end(w)} aria-label={`End for ${w.client_name}`}>
              End now
            </Button>
          </li>
        ))}
      </ul>
      {list.data && windows.length === 0 ? (
        <p class="empty-inline">None. When you confirm an action for an app, you can choose not to be asked again for a few minutes.</p>
      ) : null}
    </Card>
  );
}
