import { useState } from "preact/hooks";
import type { TeamRole } from "../../api/teams.ts";
import { teamsApi } from "../../api/teams.ts";
import { Button } from "../../components/button.tsx";
import { SelectField, TextField } from "../../components/field.tsx";
import { toast } from "../../lib/toasts.ts";
import { Form } from "../../components/form.tsx";

type Props = { teamId: string; roles: TeamRole[]; onAdded: () => Promise<void> };

/** Adds an existing account to the team by username. */
export function AddMemberForm({ teamId, roles, onAdded }: Props) {
  const [username, setUsername] = useState("");
  const [role, setRole] = useState<TeamRole>("member");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const add = async () => {
    const name = username.trim().replace(/^@/, "").toLowerCase();
    if (!name) return setError("Enter the person's username.");
    setBusy(true);
    setError(null);
    try {
      await teamsApi.addMember(teamId, name, role);
      toast(`${name} added as ${role}.`, "success");
      setUsername("");
      await onAdded();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Form class="inline-form" onSubmit={() => void add()}>
      <TextField label="Add member by username" value={username} onValue={setUsername} autocomplete="off" error={error} />
      <SelectField label="Role" value={role} options={roles.map((r) => ({ value: r, label: r }))} onValue={setRole} />
      <Button type="submit" busy={busy}>
        Add member
      </Button>
    </Form>
  );
}
