import { useLocation } from "preact-iso";
import { teamsApi } from "../../api/teams.ts";
import { Card } from "../../components/card.tsx";
import { EmptyState } from "../../components/empty-state.tsx";
import { useRequiredUser } from "../../lib/session.ts";
import { useLoad } from "../../lib/use-load.ts";
import { CreateTeamForm } from "./create-team-form.tsx";
import { buildTree, TeamTree } from "./team-tree.tsx";

/** The user's teams as a tree, and a form for a new team or sub-team. */
export function TeamsPage() {
  const user = useRequiredUser();
  const { query } = useLocation();
  const list = useLoad(() => (user ? teamsApi.list() : Promise.resolve([])), [user?.id]);
  if (!user) return <p class="muted">Loading…</p>;
  const roots = buildTree(list.data ?? []);
  return (
    <div class="page">
      <header class="page-head">
        <h1>Teams</h1>
        <p class="muted">Teams group people; sub-teams inherit their parent's members and roles.</p>
      </header>
      <Card title="Your teams">
        {list.error ? <p class="form-error">{list.error}</p> : null}
        {list.loading && !list.data ? <p class="muted">Loading…</p> : null}
        {list.data && roots.length === 0 ? <EmptyState title="No teams yet">Create one below, or ask a team owner to add you.</EmptyState> : null}
        {roots.length > 0 ? <TeamTree roots={roots} /> : null}
      </Card>
      <Card id="new-team" title={query.parent ? "New sub-team" : "New team"}>
        {list.data ? <CreateTeamForm roots={roots} parentId={query.parent ?? null} onCreated={() => void list.reload()} /> : <p class="muted">Loading…</p>}
      </Card>
    </div>
  );
}
