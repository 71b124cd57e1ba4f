import type { App } from "../../api/apps.ts";
import { type AppChallenge, twoFactorApi } from "../../api/two-factor.ts";
import { Card } from "../../components/card.tsx";
import { formatTime } from "../../lib/format.ts";
import { useLoad } from "../../lib/use-load.ts";

const STATUS: Record<AppChallenge["status"], string> = {
  created: "waiting",
  expired: "expired unanswered",
  approved: "confirmed, code not yet redeemed",
  redeemed: "confirmed and verified",
  closed: "rejected or failed",
};

/** The 2FA confirmations this app asked for lately (who confirmed stays with the app's own records). */
export function AppChallenges({ app }: { app: App }) {
  const loaded = useLoad(() => twoFactorApi.appChallenges(app.client_id), [app.client_id]);
  const challenges = loaded.data ?? [];
  return (
    <Card id="two-factor-challenges" title="Recent 2FA confirmations">
      {challenges.length === 0 ? (
        <p class="muted">{loaded.loading ? "Loading…" : loaded.error ? loaded.error : "None yet. The README's 2FA section shows how an app asks for one."}</p>
      ) : (
        <table class="table table-small">
          <thead>
            <tr>
              <th>Asked</th>
              <th>Action</th>
              <th>Outcome</th>
              <th>Method</th>
            </tr>
          </thead>
          <tbody>
            {challenges.map((c) => (
              <tr key={`${c.created_at}-${c.action}-${c.status}`}>
                <td>{formatTime(c.created_at)}</td>
                <td class="wrap">{c.action || <em class="muted">(none given)</em>}</td>
                <td>{STATUS[c.status]}</td>
                <td>{c.method ?? "—"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Card>
  );
}
