import { useState } from "preact/hooks";
import { teamsApi } from "../../api/teams.ts";
import { Button } from "../../components/button.tsx";
import { TextField } from "../../components/field.tsx";
import { toast } from "../../lib/toasts.ts";
import { Form } from "../../components/form.tsx";

const slugOf = (name: string) =>
  name
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9_-]+/g, "-")
    .replace(/^[-_]+|-+$/g, "")
    .slice(0, 63);

/** A new group: its name, and a slug that never changes (apps see the slug). */
export function CreateGroupForm({ teamId, onCreated }: { teamId: string; onCreated: () => Promise<void> }) {
  const [name, setName] = useState("");
  const [slug, setSlug] = useState("");
  const [slugEdited, setSlugEdited] = useState(false);
  const [errors, setErrors] = useState<{ name?: string; slug?: string }>({});
  const [busy, setBusy] = useState(false);

  const create = async () => {
    const found: typeof errors = {};
    if (!name.trim()) found.name = "Name the group.";
    if (!/^[a-z0-9][a-z0-9_-]{0,62}$/.test(slug)) found.slug = "Lowercase letters, digits, _ or -, starting with a letter or digit.";
    setErrors(found);
    if (Object.keys(found).length) return;
    setBusy(true);
    try {
      await teamsApi.createGroup(teamId, slug, name.trim());
      toast(`Group "${name.trim()}" created.`, "success");
      setName("");
      setSlug("");
      setSlugEdited(false);
      await onCreated();
    } catch (e) {
      const text = (e as Error).message;
      setErrors(/slug/i.test(text) ? { slug: text } : { name: text });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Form class="inline-form" onSubmit={() => void create()}>
      <TextField
        label="New group name"
        value={name}
        onValue={(v) => {
          setName(v);
          if (!slugEdited) setSlug(slugOf(v));
        }}
        autocomplete="off"
        error={errors.name}
      />
      <TextField
        label="Slug"
        value={slug}
        onValue={(v) => {
          setSlug(v);
          setSlugEdited(true);
        }}
        autocomplete="off"
        error={errors.slug}
        hint="Fixed once created."
      />
      <Button type="submit" busy={busy}>
        Create group
      </Button>
    </Form>
  );
}
