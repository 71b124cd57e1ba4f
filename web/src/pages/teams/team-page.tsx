import { useRoute } from "preact-iso";
import { atLeast, teamsApi } from "../../api/teams.ts";
import { Button } from "../../components/button.tsx";
import { copyText } from "../../components/copy-field.tsx";
import { EmptyState } from "../../components/empty-state.tsx";
import { useRequiredUser } from "../../lib/session.ts";
import { useLoad } from "../../lib/use-load.ts";
import { GroupsSection } from "./groups-section.tsx";
import { MembersSection } from "./members-section.tsx";
import { TeamAudit } from "./team-audit.tsx";
import { TeamSettings } from "./team-settings.tsx";

/** One team: its members, groups, audit log and settings, as far as the user's role allows. */
export function TeamPage() {
  const user = useRequiredUser();
  const { params } = useRoute();
  const id = params.id ?? "";
  const detail = useLoad(() => (user ? teamsApi.get(id) : Promise.resolve(undefined)), [id, user?.id]);
  const all = useLoad(() => (user ? teamsApi.list() : Promise.resolve([])), [id, user?.id]);
  if (!user || (detail.loading && !detail.data)) return <p class="muted">Loading…</p>;
  if (!detail.data) {
    const gone = detail.error && /not found/i.test(detail.error);
    return (
      <EmptyState
        title={gone ? "Team not found" : "This team could not be loaded"}
        action={
          <a class="btn btn-secondary" href="/teams">
            All teams
          </a>
        }
      >
        {gone ? "It does not exist, or you are not a member." : detail.error}
      </EmptyState>
    );
  }
  const { team, members, groups } = detail.data;
  const parent = (all.data ?? []).find((t) => t.id === team.parent_id);
  const reload = () => detail.reload();
  return (
    <div class="page">
      <header class="page-head">
        <p class="crumbs">
          <a href="/teams">Teams</a>
          {parent ? (
            <>
              {" / "}
              <a href={`/teams/${parent.id}`}>{parent.name}</a>
            </>
          ) : null}
        </p>
        <div class="title-row">
          <h1>{team.name}</h1>
          <span class="badge">your role: {team.role}</span>
          {atLeast(team.role, "admin") ? (
            <a class="btn btn-secondary push-right" href={`/teams?parent=${team.id}#new-team`}>
              Add sub-team
            </a>
          ) : null}
        </div>
        <p class="muted team-id">
          Team id <code>{team.id}</code>{" "}
          <Button variant="ghost" onClick={() => void copyText(team.id, "The team id was copied")} aria-label="Copy the team id">
            Copy
          </Button>
        </p>
      </header>
      <MembersSection team={team} members={members} allTeams={all.data ?? []} selfId={user.id} onChange={reload} />
      <GroupsSection team={team} members={members} groups={groups} onChange={reload} />
      {atLeast(team.role, "admin") ? <TeamAudit team={team} members={members} /> : null}
      {atLeast(team.role, "co-owner") ? <TeamSettings team={team} allTeams={all.data ?? []} onChange={reload} /> : null}
    </div>
  );
}
