import { useEffect, useState } from "preact/hooks";
import { adminApi, type AuditEntry } from "../../api/admin.ts";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { toast } from "../../lib/toasts.ts";
import { formatTime } from "../../lib/format.ts";

const PAGE = 50;

const describe = (details: unknown) => {
  if (details === null || details === undefined) return "";
  const text = JSON.stringify(details);
  return text === "{}" ? "" : text.length > 120 ? `${text.slice(0, 117)}…` : text;
};

/** An actor by username; a deleted account (even one the loaded list still names) by its id only. */
const actorLabel = (id: string, names: Map<string, string>, deleted: Set<string>) =>
  deleted.has(id) ? (
    <span class="mono small" title={id}>
      deleted user
    </span>
  ) : (
    (names.get(id) ?? <span class="mono small">{id.slice(0, 8)}</span>)
  );

/** The site-wide audit log, newest first, a page at a time. */
export function AdminAudit() {
  const [entries, setEntries] = useState<AuditEntry[] | null>(null);
  const [more, setMore] = useState(false);
  const [busy, setBusy] = useState(false);
  const [names, setNames] = useState<Map<string, string>>(new Map());

  const load = async (before?: number) => {
    setBusy(true);
    try {
      const page = await adminApi.audit(before, PAGE);
      setEntries((prev) => (before && prev ? [...prev, ...page] : page));
      setMore(page.length === PAGE);
    } catch (e) {
      toast((e as Error).message, "error");
    } finally {
      setBusy(false);
    }
  };
  useEffect(() => {
    void load();
    // Usernames for the actor column (the first 200 accounts cover a household or small team).
    adminApi.users("", 200).then(
      ({ users }) => setNames(new Map(users.map((u) => [u.id, u.username]))),
      () => {},
    );
  }, []);

  // A deletion is the newest entry about an account, so it is loaded whenever older ones are.
  const deleted = new Set((entries ?? []).filter((e) => e.action === "user.deleted" && e.target_user_id).map((e) => e.target_user_id as string));
  return (
    <Card
      id="admin-audit"
      title="Audit log"
      actions={
        <Button variant="secondary" busy={busy && entries !== null} onClick={() => void load()}>
          Refresh
        </Button>
      }
    >
      {entries === null ? <p class="muted">Loading…</p> : null}
      {entries && entries.length === 0 ? <p class="empty-inline">Nothing recorded yet.</p> : null}
      {entries && entries.length > 0 ? (
        <div class="table-wrap">
          <table class="table table-small table-stack">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Action</th>
                <th scope="col">Actor</th>
                <th scope="col">Details</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((e) => (
                <tr key={e.id}>
                  <td class="nowrap">{formatTime(e.at)}</td>
                  <td>
                    <code>{e.action}</code>
                  </td>
                  <td>{e.actor_user_id ? actorLabel(e.actor_user_id, names, deleted) : "system"}</td>
                  <td class="mono small break cell-wide">{describe(e.details)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {more ? (
        <div class="pager">
          <Button variant="secondary" busy={busy} onClick={() => void load(entries?.at(-1)?.id)}>
            Load older entries
          </Button>
        </div>
      ) : null}
    </Card>
  );
}
