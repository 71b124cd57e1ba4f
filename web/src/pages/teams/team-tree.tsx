import type { TeamSummary } from "../../api/teams.ts";

export type TeamNode = TeamSummary & { children: TeamNode[] };

/** Nests teams by parent_id; a team whose parent is not visible to the user is a root. */
export function buildTree(teams: TeamSummary[]): TeamNode[] {
  const nodes = new Map(teams.map((t) => [t.id, { ...t, children: [] as TeamNode[] }]));
  const roots: TeamNode[] = [];
  for (const node of nodes.values()) {
    const parent = node.parent_id ? nodes.get(node.parent_id) : undefined;
    (parent ? parent.children : roots).push(node);
  }
  const sort = (list: TeamNode[]) => {
    list.sort((a, b) => a.name.localeCompare(b.name));
    for (const n of list) sort(n.children);
  };
  sort(roots);
  return roots;
}

/** The tree in display order, with each team's depth (for indented pickers). */
export function flatten(roots: TeamNode[], depth = 0): { team: TeamNode; depth: number }[] {
  return roots.flatMap((team) => [{ team, depth }, ...flatten(team.children, depth + 1)]);
}

function Branch({ nodes }: { nodes: TeamNode[] }) {
  return (
    <ul class="tree">
      {nodes.map((t) => (
        <li key={t.id}>
          <a class="tree-item" href={`/teams/${t.id}`}>
            <span class="tree-name">{t.name}</span>
            <span class="badge">{t.role}</span>
            {t.direct_role === null ? <span class="muted small">inherited</span> : null}
          </a>
          {t.children.length > 0 ? <Branch nodes={t.children} /> : null}
        </li>
      ))}
    </ul>
  );
}

/** The user's teams as nested lists of links. */
export function TeamTree({ roots }: { roots: TeamNode[] }) {
  return (
    <nav aria-label="Your teams">
      <Branch nodes={roots} />
    </nav>
  );
}
