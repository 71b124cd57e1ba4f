import { useState } from "preact/hooks";
import { attemptThenReload } from "../workspace/attempt.ts";
import { type SharedSet, shareLinksApi, type Visitor } from "../../api/share-links.ts";
import { ConfirmDialog } from "../../components/confirm-dialog.tsx";
import { TitleInput } from "../workspace/title-input.tsx";
import { findNode } from "../workspace/todo-tree-view.tsx";
import { buildTree, orderItems, type TodoNode } from "../workspace/model/todo-tree.ts";
import { SharedItem, type SharedActions } from "./shared-item.tsx";
import { useLocalNow } from "../workspace/due-label.tsx";

type Props = { token: string; visitor: Visitor; shared: SharedSet; reload: () => Promise<void> };

/** The shared set's todos as a tree, with exactly the actions the link's capabilities allow. */
export function SharedTree({ token, visitor, shared, reload }: Props) {
  const [composer, setComposer] = useState<string | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<TodoNode | null>(null);
  const p = shared.permissions;
  const roots = buildTree(shared.todos);
  const now = useLocalNow(shared.set.timezone);

  const attempt = (work: () => Promise<unknown>) => attemptThenReload(work, reload);

  const actions: SharedActions = {
    permissions: p,
    now,
    composer,
    editing,
    setComposer,
    setEditing,
    siblingsOf: (parentId) => (parentId === null ? roots : (findNode(roots, parentId)?.children ?? [])).map((t) => t.id),
    addSub: async (parent, title) => {
      await shareLinksApi.createTodo(token, title, parent.id, visitor);
      await reload();
    },
    rename: (todo, title) => attempt(() => shareLinksApi.patchTodo(token, todo.id, { title }, visitor)),
    toggle: (todo) => attempt(() => shareLinksApi.patchTodo(token, todo.id, { completed: !todo.completed }, visitor)),
    reorder: (ids) => attempt(() => shareLinksApi.reorder(token, orderItems(ids), visitor)),
    openDelete: setDeleting,
  };

  return (
    <div class="ws-todos share-todos">
      {p.canCreate ? (
        <TitleInput
          label="New todo"
          placeholder="Add a todo and press Enter"
          keepOpen
          onSubmit={async (title) => {
            await shareLinksApi.createTodo(token, title, null, visitor);
            await reload();
          }}
        />
      ) : null}
      {p.canReorder && roots.length > 1 ? <p class="field-hint share-reorder-hint">Drag a todo to reorder it, or focus it and press Alt+↑ or Alt+↓.</p> : null}
      {roots.length === 0 ? <p class="empty-inline">{p.canView ? "Nothing here yet." : "This link does not show the todos of the list."}</p> : null}
      {roots.length > 0 ? (
        <ul class="ws-tree" aria-label="Todos">
          {roots.map((t) => (
            <SharedItem key={t.id} todo={t} actions={actions} />
          ))}
        </ul>
      ) : null}
      <ConfirmDialog
        open={deleting !== null}
        title="Delete this todo?"
        confirmLabel="Delete"
        onClose={() => setDeleting(null)}
        onConfirm={() => shareLinksApi.deleteTodo(token, deleting!.id, visitor).finally(() => void reload())}
      >
        <p>
          “{deleting?.title}”{deleting && deleting.children.length > 0 ? ` and its ${deleting.children.length} sub-todos` : ""} will be deleted for everyone.
          This cannot be undone.
        </p>
      </ConfirmDialog>
    </div>
  );
}
