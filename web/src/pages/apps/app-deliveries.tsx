import { type App, appsApi } from "../../api/apps.ts";
import { Card } from "../../components/card.tsx";
import { formatTime } from "../../lib/format.ts";
import { useLoad } from "../../lib/use-load.ts";

const STATUS = { pending: "Retrying", delivered: "Delivered", failed: "Given up" } as const;

/** The back-channel logout delivery log (OIDC Back-Channel Logout): what reached the app, and why not. */
export function AppDeliveries({ app }: { app: App }) {
  const loaded = useLoad(() => appsApi.deliveries(app.client_id), [app.client_id]);
  if (!app.backchannel_logout_uri) return null;
  const deliveries = loaded.data ?? [];
  return (
    <Card id="backchannel" title="Back-channel logout deliveries">
      {deliveries.length === 0 ? (
        <p class="muted">{loaded.loading ? "Loading…" : "No sign-out has been sent to this app yet."}</p>
      ) : (
        <table class="table table-small">
          <thead>
            <tr>
              <th>Sent for</th>
              <th>Status</th>
              <th>Attempts</th>
              <th>Last problem</th>
            </tr>
          </thead>
          <tbody>
            {deliveries.map((d) => (
              <tr key={d.id}>
                <td>{formatTime(d.created_at)}</td>
                <td>
                  {STATUS[d.status]}
                  {d.next_attempt_at ? <span class="muted small"> (next {formatTime(d.next_attempt_at)})</span> : null}
                </td>
                <td>{d.attempts}</td>
                <td class="break">{d.last_error ?? "—"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Card>
  );
}
