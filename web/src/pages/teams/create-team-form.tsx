import { useEffect, useState } from "preact/hooks";
import { atLeast, teamsApi } from "../../api/teams.ts";
import { Button } from "../../components/button.tsx";
import { SelectField, TextField } from "../../components/field.tsx";
import { toast } from "../../lib/toasts.ts";
import { flatten, type TeamNode } from "./team-tree.tsx";
import { Form } from "../../components/form.tsx";

type Props = { roots: TeamNode[]; parentId: string | null; onCreated: () => void };

/** A new team, top-level or under a team where the user is at least admin. */
export function CreateTeamForm({ roots, parentId, onCreated }: Props) {
  const [name, setName] = useState("");
  const [parent, setParent] = useState(parentId ?? "");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => setParent(parentId ?? ""), [parentId]);

  const parents = flatten(roots).filter(({ team }) => atLeast(team.role, "admin"));
  const options = [
    { value: "", label: "None: a top-level team" },
    ...parents.map(({ team, depth }) => ({ value: team.id, label: `${"— ".repeat(depth)}${team.name}` })),
  ];

  const create = async () => {
    if (!name.trim()) return setError("Name the team.");
    setBusy(true);
    setError(null);
    try {
      const team = await teamsApi.create(name.trim(), parent || null);
      toast(`Team "${team.name}" created.`, "success");
      setName("");
      onCreated();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Form onSubmit={() => void create()}>
      <TextField label="Team name" value={name} onValue={setName} autocomplete="off" error={error} />
      <SelectField label="Parent team" value={parent} options={options} onValue={setParent} hint="Members of a parent team keep their role in its sub-teams." />
      <div class="form-actions start">
        <Button type="submit" busy={busy}>
          Create team
        </Button>
      </div>
    </Form>
  );
}
