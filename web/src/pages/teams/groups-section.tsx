import { atLeast, type Team, type TeamGroup, type TeamMember } from "../../api/teams.ts";
import { Card } from "../../components/card.tsx";
import { CreateGroupForm } from "./create-group-form.tsx";
import { GroupItem } from "./group-item.tsx";

type Props = { team: Team; members: TeamMember[]; groups: TeamGroup[]; onChange: () => Promise<void> };

/** Named subsets of the team's members (a team has groups once it has one). */
export function GroupsSection({ team, members, groups, onChange }: Props) {
  const manage = atLeast(team.role, "admin");
  if (!manage && groups.length === 0) return null;
  return (
    <Card id="groups" title="Groups">
      {groups.length === 0 ? <p class="empty-inline">No groups. Groups let apps tell subsets of a team apart, such as "parents" and "kids".</p> : null}
      {groups.length > 0 ? (
        <ul class="rows" aria-label="Groups">
          {groups.map((g) => (
            <GroupItem key={g.slug} teamId={team.id} group={g} members={members} manage={manage} onChange={onChange} />
          ))}
        </ul>
      ) : null}
      {manage ? <CreateGroupForm teamId={team.id} onCreated={onChange} /> : null}
    </Card>
  );
}
