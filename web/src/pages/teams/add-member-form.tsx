import type { TeamRole } from "../../api/teams.ts";
import { teamsApi } from "../../api/teams.ts";
import { AddForm } from "../../components/add-form.tsx";
import { SelectField, TextField } from "../../components/field.tsx";
import { useAddForm } from "../../components/use-add-form.ts";
import { toast } from "../../lib/toasts.ts";

type Props = { teamId: string; roles: TeamRole[]; onAdded: () => Promise<void> };

const usernameOf = (typed: string) => typed.trim().replace(/^@/, "").toLowerCase();

/** Adds an existing account to the team by username. */
export function AddMemberForm({ teamId, roles, onAdded }: Props) {
  const form = useAddForm({
    initial: () => ({ username: "", role: "member" as TeamRole }),
    check: ({ username }) => (usernameOf(username) ? {} : { username: "Enter the person's username." }),
    send: async ({ username, role }) => {
      const name = usernameOf(username);
      await teamsApi.addMember(teamId, name, role);
      toast(`${name} added as ${role}.`, "success");
    },
    keep: ["role"],
    refusalAt: "username",
    done: onAdded,
  });
  return (
    <AddForm form={form} submitLabel="Add member" inline>
      <TextField label="Add member by username" {...form.field("username")} autocomplete="off" />
      <SelectField label="Role" {...form.field("role")} options={roles.map((r) => ({ value: r, label: r }))} />
    </AddForm>
  );
}
