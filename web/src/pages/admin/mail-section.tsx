import { useState } from "preact/hooks";
import { type MailStatus, mailApi, type OutboxEntry } from "../../api/mail.ts";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { TextField } from "../../components/field.tsx";
import { Form } from "../../components/form.tsx";
import { MAIL_KIND_LABELS } from "../../lib/mail-kinds.ts";
import { formatTime } from "../../lib/format.ts";
import { toast } from "../../lib/toasts.ts";
import { useLoad } from "../../lib/use-load.ts";

const SECURITY: Record<NonNullable<MailStatus["security"]>, string> = {
  tls: "TLS from the start (smtps)",
  starttls: "STARTTLS, required",
  starttls_if_offered: "STARTTLS when the server offers it (a server on this machine)",
};
const STATE: Record<OutboxEntry["state"], { label: string; badge: string }> = {
  pending: { label: "Waiting", badge: "badge" },
  sending: { label: "Sending", badge: "badge" },
  sent: { label: "Sent", badge: "badge badge-success" },
  failed: { label: "Given up", badge: "badge badge-danger" },
};

/** How the server is reached, or which variables to set. Never the password: the server does not send it. */
function Setup({ status }: { status: MailStatus }) {
  if (!status.configured)
    return (
      <div class="notice notice-warning" role="status">
        <p>
          <strong>Mail is not set up.</strong> Cairn sends no email: no address verification, password reset links, invitations or notices. Pages that would
          send mail say so.
        </p>
        <p>Set these environment variables and restart Cairn (see the README, section Mail):</p>
        <ul>
          {status.missing.map((variable) => (
            <li key={variable}>
              <code>{variable}</code>
            </li>
          ))}
        </ul>
      </div>
    );
  return (
    <dl class="facts">
      <dt>Server</dt>
      <dd>
        <code>
          {status.host}:{status.port}
        </code>
      </dd>
      <dt>Security</dt>
      <dd>{status.security ? SECURITY[status.security] : "—"}</dd>
      <dt>Sender</dt>
      <dd>{status.from}</dd>
      <dt>Login</dt>
      <dd>{status.user ?? "none"}</dd>
      {status.ca_file ? (
        <>
          <dt>Trusted CA</dt>
          <dd>
            <code>{status.ca_file}</code>
          </dd>
        </>
      ) : null}
    </dl>
  );
}

function Outbox({ entries }: { entries: OutboxEntry[] }) {
  if (entries.length === 0) return <p class="empty-inline">Nothing sent yet.</p>;
  return (
    <div class="table-wrap">
      <table class="table table-small table-stack" aria-label="Recent mail">
        <thead>
          <tr>
            <th>Queued</th>
            <th>Kind</th>
            <th>To</th>
            <th>State</th>
            <th>Tries</th>
            <th>Last problem</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((e) => (
            <tr key={e.id}>
              <td>{formatTime(e.created_at)}</td>
              <td>{MAIL_KIND_LABELS[e.kind]}</td>
              <td class="break">{e.to}</td>
              <td>
                <span class={STATE[e.state].badge}>{STATE[e.state].label}</span>
                {e.state === "pending" && e.attempts > 0 && e.next_attempt_at ? <span class="row-meta">next try {formatTime(e.next_attempt_at)}</span> : null}
                {e.sent_at ? <span class="row-meta">{formatTime(e.sent_at)}</span> : null}
              </td>
              <td>{e.attempts}</td>
              <td class="break">{e.last_error ?? "—"}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Admin → Mail: how Cairn reaches its mail server, a test message, and what the outbox holds. */
export function MailSection() {
  const loaded = useLoad(() => mailApi.status());
  const [to, setTo] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const status = loaded.data;

  const sendTest = async () => {
    if (!to.trim()) return setError("Enter the address to send the test email to.");
    setBusy(true);
    setError(null);
    try {
      await mailApi.sendTest(to.trim());
      toast(`Test email queued for ${to.trim()}.`, "success");
      // It leaves within a second or so: the list then shows it sent, or why not.
      await loaded.reload();
      setTimeout(() => void loaded.reload(), 1500);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card
      id="mail"
      title="Mail"
      actions={
        status ? (
          <span class={status.configured ? "badge badge-success" : "badge badge-danger"}>{status.configured ? "Configured" : "Not configured"}</span>
        ) : null
      }
    >
      {loaded.error ? <p class="form-error">{loaded.error}</p> : null}
      {!status ? (
        <p class="muted">{loaded.loading ? "Loading…" : null}</p>
      ) : (
        <>
          <Setup status={status} />
          {status.configured ? (
            <Form onSubmit={() => void sendTest()}>
              <TextField label="Send a test email to" type="email" value={to} onValue={setTo} autocomplete="email" error={error} />
              <div class="form-actions start">
                <Button type="submit" busy={busy}>
                  Send a test email
                </Button>
                <Button variant="secondary" onClick={() => void loaded.reload()}>
                  Refresh
                </Button>
              </div>
            </Form>
          ) : null}
          <h3>Recent mail</h3>
          <Outbox entries={status.recent} />
        </>
      )}
    </Card>
  );
}
