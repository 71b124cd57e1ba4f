import { type App, appsApi } from "../../api/apps.ts";
import { Card } from "../../components/card.tsx";
import { formatTime } from "../../lib/format.ts";
import { useLoad } from "../../lib/use-load.ts";

/** The live tokens a service account holds for itself (client credentials): when, for what, until when. */
export function AppMachineTokens({ app }: { app: App }) {
  const loaded = useLoad(() => appsApi.machineTokens(app.client_id), [app.client_id]);
  if (!app.grant_types.includes("client_credentials")) return null;
  const tokens = loaded.data ?? [];
  return (
    <Card id="machine-tokens" title="Tokens the app holds for itself">
      {tokens.length === 0 ? (
        <p class="muted">{loaded.loading ? "Loading…" : "None live. The app gets one with the client credentials grant."}</p>
      ) : (
        <table class="table table-small">
          <thead>
            <tr>
              <th>Issued</th>
              <th>Scope</th>
              <th>Expires</th>
            </tr>
          </thead>
          <tbody>
            {tokens.map((t) => (
              <tr key={`${t.created_at}-${t.scope}-${t.expires_at}`}>
                <td>{formatTime(t.created_at)}</td>
                <td>
                  <code>{t.scope}</code>
                  {t.dpop_bound ? <span class="badge">DPoP</span> : null}
                </td>
                <td>{formatTime(t.expires_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Card>
  );
}
