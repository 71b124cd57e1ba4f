import { useState } from "preact/hooks";
import { adminApi, type Invite } from "../../api/admin.ts";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { ConfirmDialog } from "../../components/confirm-dialog.tsx";
import { CopyField } from "../../components/copy-field.tsx";
import { Checkbox, SelectField, TextField } from "../../components/field.tsx";
import { toast } from "../../lib/toasts.ts";
import { formatTime } from "../../lib/format.ts";
import { useLoad } from "../../lib/use-load.ts";
import { useSiteMail } from "../../lib/use-site-mail.ts";
import { AddForm } from "../../components/add-form.tsx";
import { useAddForm } from "../../components/use-add-form.ts";

const EXPIRY = [
  { value: "24", label: "1 day" },
  { value: "168", label: "7 days" },
  { value: "720", label: "30 days" },
];
const STATUS_BADGE: Record<Invite["status"], string> = { pending: "badge", used: "badge badge-success", expired: "badge badge-danger" };

/** Invitation links: one use each, optionally for one email address, and mailed to it when the site sends mail. */
export function InvitesSection() {
  const list = useLoad(() => adminApi.invites());
  const mail = useSiteMail();
  const [created, setCreated] = useState<{ url: string; mailedTo: string | null } | null>(null);
  const [deleting, setDeleting] = useState<Invite | null>(null);
  const form = useAddForm({
    initial: () => ({ email: "", hours: "168", sendEmail: false }),
    check: ({ email, sendEmail }) => (sendEmail && !email.trim() ? { email: "Enter the address to send the invitation to." } : {}),
    send: ({ email, hours, sendEmail }) =>
      adminApi.createInvite({ ...(email.trim() ? { email: email.trim() } : {}), expires_in_hours: Number(hours), ...(sendEmail ? { send_email: true } : {}) }),
    keep: ["hours", "sendEmail"],
    refusalAt: "email",
    done: async ({ url, invite }) => {
      setCreated({ url, mailedTo: invite.mailed_at !== null ? invite.email : null });
      await list.reload();
    },
  });

  const invites = list.data ?? [];
  return (
    <Card id="invites" title="Invitations">
      {created ? (
        <div class="notice notice-success">
          <CopyField
            label="Invitation link"
            value={created.url}
            hint={
              created.mailedTo
                ? `It was emailed to ${created.mailedTo}. It works once and is not shown again.`
                : "Send this link to the person you invite. It works once and is not shown again."
            }
          />
          <Button variant="secondary" onClick={() => setCreated(null)}>
            Done
          </Button>
        </div>
      ) : null}
      <AddForm form={form} submitLabel="Create invitation" inline>
        <TextField label="For email (optional)" type="email" {...form.field("email")} autocomplete="off" />
        <SelectField label="Valid for" {...form.field("hours")} options={EXPIRY} />
        <Checkbox
          label="Send by email"
          checked={form.values.sendEmail}
          onChange={(checked) => form.set("sendEmail", checked)}
          disabled={mail !== true}
          hint={
            mail === false
              ? "This site does not send email: an administrator sets up mail first (Admin → Mail)."
              : "Mails the link to the address above; registering with it then starts with a verified email."
          }
        />
      </AddForm>
      {list.error ? <p class="form-error">{list.error}</p> : null}
      {list.data && invites.length === 0 ? <p class="empty-inline">No invitations yet.</p> : null}
      {invites.length > 0 ? (
        <ul class="rows" aria-label="Invitations">
          {invites.map((i) => (
            <li key={i.id} class="row">
              <div class="grow">
                <strong>{i.email ?? "Anyone with the link"}</strong> <span class={STATUS_BADGE[i.status]}>{i.status}</span>
                {i.mailed_at !== null ? <span class="badge">emailed</span> : null}
                <span class="row-meta">
                  Created {formatTime(i.created_at)} · {i.status === "used" ? `used ${formatTime(i.used_at)}` : `expires ${formatTime(i.expires_at)}`}
                </span>
              </div>
              <Button variant="ghost" onClick={() => setDeleting(i)} aria-label={`Delete invitation ${i.email ?? i.id}`}>
                Delete
              </Button>
            </li>
          ))}
        </ul>
      ) : null}
      <ConfirmDialog
        open={deleting !== null}
        title="Delete invitation?"
        confirmLabel="Delete"
        onClose={() => setDeleting(null)}
        onConfirm={async () => {
          await adminApi.deleteInvite((deleting as Invite).id);
          toast("Invitation deleted.", "success");
          await list.reload();
        }}
      >
        <p>{deleting?.status === "pending" ? "Its link stops working." : "It is removed from the list."}</p>
      </ConfirmDialog>
    </Card>
  );
}
