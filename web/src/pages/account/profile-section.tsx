import { useState } from "preact/hooks";
import type { User } from "../../api/auth.ts";
import { meApi } from "../../api/me.ts";
import { FormCard } from "../../components/form-card.tsx";
import { TextField } from "../../components/field.tsx";
import { toast } from "../../lib/toasts.ts";
import { signedIn } from "../../lib/session.ts";

/** Name, email and picture. */
export function ProfileSection({ user }: { user: User }) {
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
      toast("Profile saved.", "success");
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
          <TextField label="Email" type="email" value={email} onValue={setEmail} autocomplete="email" error={error?.field === "email" ? error.text : null} />
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
