import { useState } from "preact/hooks";
import type { User } from "../../api/auth.ts";
import { meApi } from "../../api/me.ts";
import { FormCard } from "../../components/form-card.tsx";
import { TextField } from "../../components/field.tsx";
import { toast } from "../../lib/toasts.ts";
import { signedIn } from "../../lib/session.ts";
import { useSiteMail } from "../../lib/use-site-mail.ts";
import { Button } from "../../components/button.tsx";

/** Whether the address is verified, with "Resend" while it is not; without mail, what is missing. */
function EmailStatus({ user, mail }: { user: User; mail: boolean | null }) {
  const [busy, setBusy] = useState(false);
  if (user.email_verified) return <span class="badge badge-success">verified</span>;
  if (mail === false) return <span>Not verified. Verifying an address needs email, which an administrator has not set up on this site yet.</span>;
  const resend = async () => {
    setBusy(true);
    try {
      await meApi.resendVerification();
      toast(`A new link is on its way to ${user.email}.`, "success");
    } catch (e) {
      toast((e as Error).message, "error");
    } finally {
      setBusy(false);
    }
  };
  return (
    <span>
      <span class="badge">not verified</span> Open the link we mailed to this address.{" "}
      <Button variant="secondary" busy={busy} disabled={mail === null} onClick={() => void resend()}>
        Resend
      </Button>
    </span>
  );
}

/** Name, email (verified or not) and picture. */
export function ProfileSection({ user }: { user: User }) {
  const mail = useSiteMail();
  const [name, setName] = useState(user.name);
  const [email, setEmail] = useState(user.email);
  const [picture, setPicture] = useState(user.picture);
  const [error, setError] = useState<{ field: "email" | "picture" | "name"; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  const save = async () => {
    setBusy(true);
    setError(null);
    try {
      const patch: { name?: string; email?: string; picture?: string } = {};
      if (name !== user.name) patch.name = name;
      if (email.trim() !== user.email) patch.email = email.trim();
      if (picture.trim() !== user.picture) patch.picture = picture.trim();
      if (Object.keys(patch).length === 0) return toast("Nothing changed.");
      const updated = await meApi.updateProfile(patch);
      signedIn(updated);
      setPicture(updated.picture);
      toast(patch.email && mail ? `Profile saved. Confirm the new address with the link mailed to ${updated.email}.` : "Profile saved.", "success");
    } catch (e) {
      const text = (e as Error).message;
      setError({ field: /picture|url/i.test(text) ? "picture" : /mail/i.test(text) ? "email" : "name", text });
    } finally {
      setBusy(false);
    }
  };

  return (
    <FormCard id="profile" title="Profile" submitLabel="Save profile" busy={busy} onSubmit={() => void save()}>
      <div class="profile">
        {user.picture ? (
          <img class="avatar" src={user.picture} alt="" />
        ) : (
          <span class="avatar avatar-initial" aria-hidden="true">
            {(user.name || user.username).slice(0, 1).toUpperCase()}
          </span>
        )}
        <div class="grow">
          <TextField label="Display name" value={name} onValue={setName} autocomplete="name" error={error?.field === "name" ? error.text : null} />
          <TextField
            label="Email"
            type="email"
            value={email}
            onValue={setEmail}
            autocomplete="email"
            error={error?.field === "email" ? error.text : null}
            hint={<EmailStatus user={user} mail={mail} />}
          />
          <TextField
            label="Picture URL"
            type="url"
            value={picture}
            onValue={setPicture}
            placeholder="https://…"
            error={error?.field === "picture" ? error.text : null}
            hint="An https address of an image; leave empty for none."
          />
        </div>
      </div>
    </FormCard>
  );
}
