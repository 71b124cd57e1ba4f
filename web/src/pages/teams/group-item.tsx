import { useState } from "preact/hooks";
import { type TeamGroup, type TeamMember, teamsApi } from "../../api/teams.ts";
import { Button } from "../../components/button.tsx";
import { Checkbox } from "../../components/field.tsx";
import { ConfirmDialog } from "../../components/confirm-dialog.tsx";
import { RenameDialog } from "../../components/rename-dialog.tsx";
import { useAction } from "../../lib/use-action.ts";

type Props = { teamId: string; group: TeamGroup; members: TeamMember[]; manage: boolean; onChange: () => Promise<void> };

/** One group: who is in it, and (for admins) editing its members, renaming and deleting it. */
export function GroupItem({ teamId, group, members, manage, onChange }: Props) {
  const [editing, setEditing] = useState(false);
  const [chosen, setChosen] = useState<string[]>(group.members);
  const [dialog, setDialog] = useState<"rename" | "delete" | null>(null);
  const { busy, run } = useAction();
  const nameOf = (id: string) => members.find((m) => m.user_id === id)?.username ?? "former member";

  const save = () =>
    run(
      "save",
      async () => {
        await teamsApi.setGroupMembers(teamId, group.slug, chosen);
        setEditing(false);
        await onChange();
      },
      `Members of ${group.name} saved.`,
    );

  return (
    <li class="row row-wrap">
      <div class="grow">
        <strong>{group.name}</strong> <code class="muted">{group.slug}</code>
        <span class="row-meta">{group.members.length ? group.members.map(nameOf).join(", ") : "No members yet."}</span>
      </div>
      {manage && !editing ? (
        <>
          <Button
            variant="secondary"
            onClick={() => {
              setChosen(group.members);
              setEditing(true);
            }}
            aria-label={`Edit members of ${group.name}`}
          >
            Edit members
          </Button>
          <Button variant="ghost" onClick={() => setDialog("rename")} aria-label={`Rename ${group.name}`}>
            Rename
          </Button>
          <Button variant="ghost" onClick={() => setDialog("delete")} aria-label={`Delete ${group.name}`}>
            Delete
          </Button>
        </>
      ) : null}
      {editing ? (
        <fieldset class="group-editor">
          <legend>Members of {group.name}</legend>
          {members.map((m) => (
            <Checkbox
              key={m.user_id}
              label={`${m.name || m.username} (@${m.username})`}
              checked={chosen.includes(m.user_id)}
              onChange={(on) => setChosen(on ? [...chosen, m.user_id] : chosen.filter((id) => id !== m.user_id))}
            />
          ))}
          <div class="form-actions start">
            <Button busy={busy === "save"} onClick={() => void save()}>
              Save members
            </Button>
            <Button variant="secondary" onClick={() => setEditing(false)}>
              Cancel
            </Button>
          </div>
        </fieldset>
      ) : null}
      <RenameDialog
        open={dialog === "rename"}
        title="Rename group"
        label="Group name"
        initial={group.name}
        onClose={() => setDialog(null)}
        onSave={async (name) => {
          await teamsApi.renameGroup(teamId, group.slug, name);
          await onChange();
        }}
      />
      <ConfirmDialog
        open={dialog === "delete"}
        title="Delete group?"
        confirmLabel="Delete group"
        onClose={() => setDialog(null)}
        onConfirm={async () => {
          await teamsApi.deleteGroup(teamId, group.slug);
          await onChange();
        }}
      >
        <p>
          The group <strong>{group.name}</strong> goes away; its members stay in the team.
        </p>
      </ConfirmDialog>
    </li>
  );
}
