import { type Team, type TeamAuditEntry, type TeamMember, teamsApi } from "../../api/teams.ts";
import { Card } from "../../components/card.tsx";
import { formatTime } from "../../lib/format.ts";
import { useLoad } from "../../lib/use-load.ts";

type Details = Record<string, unknown>;

/** What each single-team permission an app was granted lets it do, said of the team (spec 1 section 2.3). */
const GRANTED: Record<string, string> = {
  read: "see this team",
  write: "change this team's settings",
  delete: "delete this team",
  "member:read": "see who is in it",
  "member:write": "add, remove and change the roles of its members",
  "member:profile:read": "see its members' profiles",
};

/** "a", "a and b", "a, b and c". */
const listOf = (items: string[]) => (items.length < 2 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`);

/** A sentence for the actions teams record, after the actor's name; anything else shows its code. */
export function describeTeamAuditEntry(e: TeamAuditEntry, who: (id: string | null) => string): string {
  const d = (e.details ?? {}) as Details;
  const target = who(e.target_user_id);
  switch (e.action) {
    case "team.created":
      return `created the team "${d.name}"`;
    case "team.renamed":
      return `renamed the team from "${d.from}" to "${d.to}"`;
    case "team.moved":
      return "moved the team to another parent";
    case "member.added":
      return `added ${target} as ${d.role}`;
    case "member.role_changed":
      return `changed ${target} from ${d.from} to ${d.to}`;
    case "member.removed":
      return `removed ${target}`;
    case "member.left":
      return "left the team";
    case "group.created":
      return `created the group ${d.slug}`;
    case "group.renamed":
      return `renamed the group ${d.slug} to "${d.to}"`;
    case "group.members_set":
      return `changed the members of group ${d.slug}`;
    case "group.deleted":
      return `deleted the group ${d.slug}`;
    case "team.access_granted": {
      const permissions = Array.isArray(d.permissions) ? (d.permissions as string[]) : [];
      return `let “${d.client_name ?? d.client_id}” ${listOf(permissions.map((p) => GRANTED[p] ?? p))}`;
    }
    default:
      return e.action;
  }
}

/** What happened to the team, newest first (admins and up). */
export function TeamAudit({ team, members }: { team: Team; members: TeamMember[] }) {
  // `members` is a new array after every change on the page, so the log follows along.
  const entries = useLoad(() => teamsApi.audit(team.id), [team.id, members]);
  const who = (id: string | null) => (id ? (members.find((m) => m.user_id === id)?.username ?? `user ${id.slice(0, 8)}`) : "system");
  return (
    <Card id="audit" title="Activity">
      {entries.error ? <p class="form-error">{entries.error}</p> : null}
      {entries.data && entries.data.length === 0 ? <p class="empty-inline">Nothing recorded yet.</p> : null}
      {entries.data && entries.data.length > 0 ? (
        <ol class="audit" aria-label="Team activity">
          {entries.data.map((e) => (
            <li key={e.id}>
              <time class="muted">{formatTime(e.at)}</time> <strong>{who(e.actor_user_id)}</strong> {describeTeamAuditEntry(e, who)}
            </li>
          ))}
        </ol>
      ) : null}
    </Card>
  );
}
