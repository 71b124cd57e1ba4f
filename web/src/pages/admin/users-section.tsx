import { useEffect, useState } from "preact/hooks";
import { type AdminUser, adminApi } from "../../api/admin.ts";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { formatTime } from "../../lib/format.ts";
import { toast } from "../../lib/toasts.ts";
import { useAction } from "../../lib/use-action.ts";
import { useLoad } from "../../lib/use-load.ts";
import { DeleteUserDialog } from "./delete-user-dialog.tsx";
import { ResetLinkDialog } from "./reset-link-dialog.tsx";

const PAGE = 25;

/** Searching accounts, making admins, disabling and enabling, vouching for an address, reset links, and deleting. */
export function UsersSection({ selfId }: { selfId: string }) {
  const [q, setQ] = useState("");
  const [search, setSearch] = useState("");
  const [offset, setOffset] = useState(0);
  const list = useLoad(() => adminApi.users(search, PAGE, offset), [search, offset]);
  const { busy, run } = useAction();
  const [deleting, setDeleting] = useState<AdminUser | null>(null);
  const [resetting, setResetting] = useState<AdminUser | null>(null);

  // Search as the admin types, after a short pause.
  useEffect(() => {
    const timer = setTimeout(() => {
      setSearch(q.trim());
      setOffset(0);
    }, 250);
    return () => clearTimeout(timer);
  }, [q]);

  const update = async (u: AdminUser, patch: { role?: "admin" | "user"; disabled?: boolean; email_verified?: boolean }, done: string) => {
    const ok = await run(
      u.id,
      async () => {
        await adminApi.updateUser(u.id, patch);
        await list.reload();
      },
      done,
    );
    if (!ok) await list.reload(); // puts a refused role choice back
  };

  const total = list.data?.total ?? 0;
  // A search counts up to 1,000 matches: past that the total is a floor, and Next goes on while pages come full.
  const capped = list.data?.total_capped === true;
  const more = capped ? list.data?.users.length === PAGE : offset + PAGE < total;
  return (
    <Card id="users" title="Users">
      <div class="field">
        <label for="user-search">Search users</label>
        <input
          id="user-search"
          class="input"
          type="search"
          value={q}
          placeholder="Start of a username, email or name"
          onInput={(e) => setQ(e.currentTarget.value)}
        />
      </div>
      {list.error ? <p class="form-error">{list.error}</p> : null}
      {list.data && list.data.users.length === 0 ? <p class="empty-inline">No users match “{search}”.</p> : null}
      {list.data && list.data.users.length > 0 ? (
        <div class="table-wrap">
          <table class="table table-stack">
            <thead>
              <tr>
                <th scope="col">User</th>
                <th scope="col">Role</th>
                <th scope="col">Status</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.data.users.map((u) => (
                <tr key={u.id}>
                  <td class="cell-wide">
                    <strong>{u.username}</strong> {u.id === selfId ? <span class="badge">you</span> : null}
                    <span class="row-meta">
                      {u.name ? `${u.name} · ` : ""}
                      {u.email} · joined {formatTime(u.created_at)}
                    </span>
                    <span class="row-meta">
                      {u.email_verified ? (
                        <span class="badge badge-success">email verified</span>
                      ) : (
                        <>
                          <span class="badge">email not verified</span> {/* An administrator vouches for an address they know to be the person's. */}
                          <Button
                            variant="ghost"
                            disabled={busy === u.id}
                            onClick={() => void update(u, { email_verified: true }, `${u.email} is marked verified.`)}
                            aria-label={`Mark the email of ${u.username} verified`}
                          >
                            Mark verified
                          </Button>
                        </>
                      )}
                    </span>
                  </td>
                  <td>
                    <select
                      class="input input-compact"
                      aria-label={`Role of ${u.username}`}
                      value={u.role}
                      disabled={busy === u.id}
                      onChange={(e) => {
                        const role = e.currentTarget.value as AdminUser["role"];
                        void update(u, { role }, role === "admin" ? `${u.username} is now an administrator.` : `${u.username} is no longer an administrator.`);
                      }}
                    >
                      <option value="user">user</option>
                      <option value="admin">admin</option>
                    </select>
                  </td>
                  <td>{u.disabled ? <span class="badge badge-danger">disabled</span> : <span class="badge badge-success">active</span>}</td>
                  <td class="cell-actions">
                    <Button
                      variant="secondary"
                      busy={busy === u.id}
                      onClick={() =>
                        void update(u, { disabled: !u.disabled }, u.disabled ? `${u.username} can sign in again.` : `${u.username} is disabled and signed out.`)
                      }
                      aria-label={`${u.disabled ? "Enable" : "Disable"} ${u.username}`}
                    >
                      {u.disabled ? "Enable" : "Disable"}
                    </Button>{" "}
                    {/* One's own account is deleted, and its password changed, from the account page. */}
                    {u.id === selfId ? null : (
                      <>
                        <Button variant="secondary" disabled={busy === u.id} onClick={() => setResetting(u)} aria-label={`Reset link for ${u.username}`}>
                          Reset link
                        </Button>{" "}
                        <Button variant="danger" disabled={busy === u.id} onClick={() => setDeleting(u)} aria-label={`Delete ${u.username}`}>
                          Delete
                        </Button>
                      </>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {total > PAGE || offset > 0 ? (
        <div class="pager">
          <Button variant="secondary" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>
            Previous
          </Button>
          <span class="muted">
            {offset + 1}–{offset + (list.data?.users.length ?? 0)} of {capped ? `${total.toLocaleString("en")}+` : total}
          </span>
          <Button variant="secondary" disabled={!more} onClick={() => setOffset(offset + PAGE)}>
            Next
          </Button>
        </div>
      ) : null}
      <ResetLinkDialog user={resetting} onClose={() => setResetting(null)} />
      <DeleteUserDialog
        user={deleting}
        onClose={() => setDeleting(null)}
        onDeleted={(u) => {
          toast(`${u.username} was deleted.`, "success");
          void list.reload();
        }}
      />
    </Card>
  );
}
