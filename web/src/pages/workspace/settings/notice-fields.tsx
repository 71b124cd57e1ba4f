import { type MailStatus, workspaceApi } from "../../../api/workspace.ts";
import { Checkbox } from "../../../components/field.tsx";
import { useLoad } from "../../../lib/use-load.ts";
import { TimeZoneField } from "./timezone-field.tsx";
import type { ResolvedUserSettings } from "./user-settings-defaults.ts";

type NoticeKey = "notify_assigned" | "notify_comments" | "notify_due_digest";
type Props = {
  draft: ResolvedUserSettings;
  set: <K extends keyof ResolvedUserSettings>(key: K, value: ResolvedUserSettings[K]) => void;
};

const NOTICES: { key: NoticeKey; label: string }[] = [
  { key: "notify_assigned", label: "When someone assigns me a todo" },
  { key: "notify_comments", label: "When someone comments on a todo I created or am assigned to" },
  { key: "notify_due_digest", label: "Every morning at 07:00: what is due today or overdue" },
];

/** Where notices go, or what keeps them from going: said before anyone turns one on. */
function Destination({ status }: { status: MailStatus }) {
  if (!status.mail)
    return <p class="muted">Mail is not set up on this Cairn, so no notices can be sent. An administrator sets CAIRN_SMTP_URL and CAIRN_SMTP_FROM.</p>;
  if (!status.email) return <p class="muted">Your account has no email address. Add one on your account page to get notices.</p>;
  if (!status.emailVerified)
    return (
      <p class="muted">
        Notices go to {status.email} once it is verified: open the link in the verification mail, or ask for a new one on your{" "}
        <a href="/account">account page</a>.
      </p>
    );
  return <p class="muted">Notices go to {status.email}. Each mail has a link that turns its kind off in one click.</p>;
}

/** Issue 44: workspace notices by mail, each off until turned on, and the time zone of the daily digest. */
export function NoticeFields({ draft, set }: Props) {
  const status = useLoad(() => workspaceApi.mailStatus());
  // Without mail a notice cannot be turned on (turning one off always works).
  const cannotSend = status.data?.mail === false;
  return (
    <div class="wss-notices">
      {status.data ? <Destination status={status.data} /> : status.error ? <p class="muted">{status.error}</p> : null}
      {NOTICES.map(({ key, label }) => (
        <Checkbox key={key} label={label} checked={draft[key]} disabled={cannotSend && !draft[key]} onChange={(v) => set(key, v)} />
      ))}
      <TimeZoneField
        label="My time zone"
        value={draft.timezone}
        onValue={(zone) => set("timezone", zone)}
        emptyLabel="My team’s time zone"
        hint="The morning mail arrives at 07:00 in this zone. Left to your team’s, it follows your first team’s default time zone."
      />
    </div>
  );
}
