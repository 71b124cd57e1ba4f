import { useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import { atLeast, type Team, type TeamSummary, teamsApi } from "../../api/teams.ts";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { ConfirmDialog } from "../../components/confirm-dialog.tsx";
import { SelectField, TextField } from "../../components/field.tsx";
import { toast } from "../../lib/toasts.ts";
import { buildTree, flatten } from "./team-tree.tsx";
import { Form } from "../../components/form.tsx";

type Props = { team: Team; allTeams: TeamSummary[]; onChange: () => Promise<void> };

/** Name and place in the tree (owners and co-owners), and deleting the team. */
export function TeamSettings({ team, allTeams, onChange }: Props) {
  const { route } = useLocation();
  const [name, setName] = useState(team.name);
  const [parent, setParent] = useState(team.parent_id ?? "");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [deleting, setDeleting] = useState(false);

  // A team cannot move under itself or its own sub-teams.
  const subtree = new Set<string>([team.id]);
  for (const { team: t } of flatten(buildTree(allTeams))) if (t.parent_id && subtree.has(t.parent_id)) subtree.add(t.id);
  const parents = flatten(buildTree(allTeams)).filter(({ team: t }) => !subtree.has(t.id) && (atLeast(t.role, "admin") || t.id === team.parent_id));
  const options = [
    { value: "", label: "None: a top-level team" },
    ...parents.map(({ team: t, depth }) => ({ value: t.id, label: `${"— ".repeat(depth)}${t.name}` })),
  ];

  const save = async () => {
    if (!name.trim()) return setError("Name the team.");
    const patch: { name?: string; parent_id?: string | null } = {};
    if (name.trim() !== team.name) patch.name = name.trim();
    if (parent !== (team.parent_id ?? "")) patch.parent_id = parent || null;
    if (!Object.keys(patch).length) return toast("Nothing changed.");
    setBusy(true);
    setError(null);
    try {
      await teamsApi.update(team.id, patch);
      toast("Team saved.", "success");
      await onChange();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card id="settings" title="Team settings">
      <Form onSubmit={() => void save()}>
        <TextField label="Team name" value={name} onValue={setName} autocomplete="off" error={error} />
        <SelectField label="Parent team" value={parent} options={options} onValue={setParent} />
        <div class="form-actions start">
          <Button type="submit" busy={busy}>
            Save changes
          </Button>
        </div>
      </Form>
      <div class="danger-zone">
        <h3>Delete this team</h3>
        <p class="muted">Its sub-teams, groups and memberships are deleted too. This cannot be undone.</p>
        <Button variant="danger" onClick={() => setDeleting(true)}>
          Delete team
        </Button>
      </div>
      <ConfirmDialog
        open={deleting}
        title={`Delete ${team.name}?`}
        confirmLabel="Delete team"
        onClose={() => setDeleting(false)}
        onConfirm={async () => {
          await teamsApi.remove(team.id);
          toast(`Team "${team.name}" deleted.`, "success");
          route("/teams");
        }}
      >
        <p>Everyone loses access to this team and all of its sub-teams.</p>
      </ConfirmDialog>
    </Card>
  );
}
