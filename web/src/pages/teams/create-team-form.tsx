import { useEffect } from "preact/hooks";
import { atLeast, teamsApi } from "../../api/teams.ts";
import { AddForm } from "../../components/add-form.tsx";
import { SelectField, TextField } from "../../components/field.tsx";
import { useAddForm } from "../../components/use-add-form.ts";
import { toast } from "../../lib/toasts.ts";
import { flatten, type TeamNode } from "./team-tree.tsx";

type Props = { roots: TeamNode[]; parentId: string | null; onCreated: () => void };

/** A new team, top-level or under a team where the user is at least admin. */
export function CreateTeamForm({ roots, parentId, onCreated }: Props) {
  const form = useAddForm({
    initial: () => ({ name: "", parent: parentId ?? "" }),
    check: ({ name }) => (name.trim() ? {} : { name: "Name the team." }),
    send: async ({ name, parent }) => {
      const team = await teamsApi.create(name.trim(), parent || null);
      toast(`Team "${team.name}" created.`, "success");
    },
    keep: ["parent"],
    refusalAt: "name",
    done: onCreated,
  });
  useEffect(() => form.set("parent", parentId ?? ""), [parentId]);

  const parents = flatten(roots).filter(({ team }) => atLeast(team.role, "admin"));
  const options = [
    { value: "", label: "None: a top-level team" },
    ...parents.map(({ team, depth }) => ({ value: team.id, label: `${"— ".repeat(depth)}${team.name}` })),
  ];

  return (
    <AddForm form={form} submitLabel="Create team">
      <TextField label="Team name" {...form.field("name")} autocomplete="off" />
      <SelectField label="Parent team" {...form.field("parent")} options={options} hint="Members of a parent team keep their role in its sub-teams." />
    </AddForm>
  );
}
