import { useState } from "preact/hooks";
import { atLeast, TEAM_ROLES, type Team, type TeamMember, type TeamRole, type TeamSummary, teamsApi } from "../../api/teams.ts";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { ConfirmDialog } from "../../components/confirm-dialog.tsx";
import { useAction } from "../../lib/use-action.ts";
import { AddMemberForm } from "./add-member-form.tsx";

type Props = { team: Team; members: TeamMember[]; allTeams: TeamSummary[]; selfId: string; onChange: () => Promise<void> };

const RANK: Record<TeamRole, number> = { owner: 4, "co-owner": 3, admin: 2, member: 1 };

/** Members with their effective role; admins and up change roles, add and remove people. */
export function MembersSection({ team, members, allTeams, selfId, onChange }: Props) {
  const { busy, run } = useAction();
  const [removing, setRemoving] = useState<TeamMember | null>(null);
  const manage = atLeast(team.role, "admin");
  // Nobody hands out or takes away a role above their own (teams.policy canGrantRole).
  const grantable = TEAM_ROLES.filter((r) => atLeast(team.role, r));
  const teamName = (id: string) => allTeams.find((t) => t.id === id)?.name ?? "a parent team";
  const sorted = [...members].sort((a, b) => RANK[b.role] - RANK[a.role] || a.username.localeCompare(b.username));

  const changeRole = async (m: TeamMember, role: TeamRole) => {
    const ok = await run(
      m.user_id,
      async () => {
        await teamsApi.setMemberRole(team.id, m.user_id, role);
        await onChange();
      },
      `${m.username} is now ${role}.`,
    );
    if (!ok) await onChange(); // puts a refused role choice back
  };

  return (
    <Card id="members" title={`Members (${members.length})`}>
      <table class="table table-stack">
        <thead>
          <tr>
            <th scope="col">Person</th>
            <th scope="col">Role</th>
            <th scope="col">
              <span class="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {sorted.map((m) => {
            const direct = m.inherited_from === null;
            const editable = manage && direct && atLeast(team.role, m.role) && m.user_id !== selfId;
            return (
              <tr key={m.user_id}>
                <td class="cell-wide">
                  <strong>{m.name || m.username}</strong> <span class="muted">@{m.username}</span>{" "}
                  {m.user_id === selfId ? <span class="badge">you</span> : null}
                </td>
                <td>
                  {editable ? (
                    <select
                      class="input input-compact"
                      aria-label={`Role of ${m.username}`}
                      value={m.role}
                      disabled={busy === m.user_id}
                      onChange={(e) => void changeRole(m, e.currentTarget.value as TeamRole)}
                    >
                      {grantable.map((r) => (
                        <option key={r} value={r}>
                          {r}
                        </option>
                      ))}
                    </select>
                  ) : (
                    <span>
                      {m.role}
                      {direct ? null : <span class="muted small"> (from {teamName(m.inherited_from as string)})</span>}
                    </span>
                  )}
                </td>
                <td class="cell-actions">
                  {direct && (editable || m.user_id === selfId) ? (
                    <Button variant="ghost" onClick={() => setRemoving(m)} aria-label={m.user_id === selfId ? "Leave team" : `Remove ${m.username}`}>
                      {m.user_id === selfId ? "Leave" : "Remove"}
                    </Button>
                  ) : null}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {manage ? <AddMemberForm teamId={team.id} roles={grantable} onAdded={onChange} /> : null}
      <ConfirmDialog
        open={removing !== null}
        title={removing?.user_id === selfId ? "Leave this team?" : "Remove member?"}
        confirmLabel={removing?.user_id === selfId ? "Leave team" : "Remove"}
        onClose={() => setRemoving(null)}
        onConfirm={async () => {
          const m = removing as TeamMember;
          await teamsApi.removeMember(team.id, m.user_id);
          if (m.user_id === selfId) location.assign("/teams");
          else await onChange();
        }}
      >
        <p>
          {removing?.user_id === selfId
            ? "You lose access to this team and its sub-teams."
            : `${removing?.username} loses access to ${team.name} and its sub-teams.`}
        </p>
      </ConfirmDialog>
    </Card>
  );
}
