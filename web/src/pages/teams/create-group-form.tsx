import { teamsApi } from "../../api/teams.ts";
import { AddForm } from "../../components/add-form.tsx";
import { TextField } from "../../components/field.tsx";
import { useAddForm } from "../../components/use-add-form.ts";
import { toast } from "../../lib/toasts.ts";

const slugOf = (name: string) =>
  name
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9_-]+/g, "-")
    .replace(/^[-_]+|-+$/g, "")
    .slice(0, 63);

/** A new group: its name, and a slug that never changes (apps see the slug). */
export function CreateGroupForm({ teamId, onCreated }: { teamId: string; onCreated: () => Promise<void> }) {
  const form = useAddForm({
    // The slug follows the name until it is typed in itself.
    initial: () => ({ name: "", slug: "", slugEdited: false }),
    check: ({ name, slug }) => ({
      ...(name.trim() ? {} : { name: "Name the group." }),
      ...(/^[a-z0-9][a-z0-9_-]{0,62}$/.test(slug) ? {} : { slug: "Lowercase letters, digits, _ or -, starting with a letter or digit." }),
    }),
    send: async ({ name, slug }) => {
      await teamsApi.createGroup(teamId, slug, name.trim());
      toast(`Group "${name.trim()}" created.`, "success");
    },
    refusalAt: (message) => (/slug/i.test(message) ? "slug" : "name"),
    done: onCreated,
  });
  const { values, set, errors } = form;

  return (
    <AddForm form={form} submitLabel="Create group" inline>
      <TextField
        label="New group name"
        value={values.name}
        onValue={(v) => {
          set("name", v);
          if (!values.slugEdited) set("slug", slugOf(v));
        }}
        autocomplete="off"
        error={errors.name}
      />
      <TextField
        label="Slug"
        value={values.slug}
        onValue={(v) => {
          set("slug", v);
          set("slugEdited", true);
        }}
        autocomplete="off"
        error={errors.slug}
        hint="Fixed once created."
      />
    </AddForm>
  );
}
