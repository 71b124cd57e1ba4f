import { useState } from "preact/hooks";
import { DEFAULT_ACTION_BAR, type Member, type TodoList, type TodoSet } from "../../api/workspace.ts";
import { ConfirmDialog } from "../../components/confirm-dialog.tsx";
import { AssignDialog } from "./assign-dialog.tsx";
import { attempt } from "./attempt.ts";
import { MoveDialog } from "./move-dialog.tsx";
import { TitleInput } from "./title-input.tsx";
import type { WorkspaceStore } from "./store/workspace-store.ts";
import { type Composer, TodoItem, type TreeActions } from "./todo-item.tsx";
import { buildTree, orderItems, placeAt, splitRoots, type TodoNode } from "./model/todo-tree.ts";
import type { WorkspaceSession } from "./use-workspace-session.ts";
import { playCompleteSound } from "./model/workspace-look.ts";
import { useMediaQuery } from "../../lib/use-media-query.ts";
import { useTreeKeyboard } from "./keyboard/use-tree-keyboard.ts";
import { DueFields, NO_DUE } from "./due-fields.tsx";
import { useLocalNow } from "./due-label.tsx";
import { type Due, sortTreeByDue } from "./model/due.ts";
import { OrderPicker, useTodoOrder } from "./todo-order.tsx";

type Props = {
  session: WorkspaceSession;
  teamId: string;
  set: TodoSet;
  sets: TodoSet[];
  list: TodoList;
  members: Member[];
  store: WorkspaceStore;
  /** The set's effective time zone, which its due dates are read in. */
  timezone: string;
};

/** The set's todos as a tree with inline add, edit, complete, assign, comment, move and delete. */
export function TodoTree({ session, teamId, set, sets, list, members, store, timezone }: Props) {
  const [composer, setComposer] = useState<Composer>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const [assigning, setAssigning] = useState<TodoNode | null>(null);
  const [moving, setMoving] = useState<TodoNode | null>(null);
  const [deleting, setDeleting] = useState<TodoNode | null>(null);
  const [addError, setAddError] = useState<string | null>(null);
  const roots = buildTree(list.todos);
  const [order, setOrder] = useTodoOrder(set.id);
  const [newDue, setNewDue] = useState<Due>(NO_DUE);
  const now = useLocalNow(timezone);
  const { open, done } = splitRoots(order === "due" ? sortTreeByDue(roots) : roots, set.splitCompleted);
  const userId = session.me.user.id;
  const bar = session.settings.action_bar ?? DEFAULT_ACTION_BAR;
  const p = list.permissions;
  const touch = useMediaQuery("(hover: none)");
  const keyboard = useTreeKeyboard();

  // Each write applies the server's answer through the store; a refused one may mean the page is behind.
  const tryWrite = (work: () => Promise<unknown>) => attempt(work, store.resyncTodos);
  // Like the writes above, but the dialog shows the error (and stays open).
  const inDialog = (work: Promise<unknown>) =>
    work.catch((e: unknown) => {
      store.resyncTodos();
      throw e;
    });
  const siblingsOf = (parentId: string | null) => (parentId === null ? roots : (findNode(roots, parentId)?.children ?? [])).map((t) => t.id);

  const actions: TreeActions = {
    userId,
    bar,
    // Sorted by due date, the rows are not in their stored order: no dragging them.
    permissions: order === "due" ? { ...p, reorder_todos: false } : p,
    touch,
    composer,
    editing,
    setComposer,
    setEditing,
    add: async (title, anchor) => {
      const parentId = anchor.where === "sub" ? anchor.todoId : (findNode(roots, anchor.todoId)?.parentId ?? null);
      const created = await store.createTodo(set.id, title, parentId);
      // New todos go to the end of their list; before/after then reorders the siblings.
      if (anchor.where !== "sub") {
        const ids = siblingsOf(parentId);
        const at = ids.indexOf(anchor.todoId) + (anchor.where === "after" ? 1 : 0);
        if (p.reorder_todos) await store.reorderTodos(set.id, orderItems(placeAt(ids, created.id, at)));
      }
      return created.id;
    },
    rename: (todo, title) => tryWrite(() => store.patchTodo(set.id, todo.id, { title })),
    setDue: (todo, due) => tryWrite(() => store.patchTodo(set.id, todo.id, due)),
    now,
    toggle: (todo) =>
      tryWrite(async () => {
        await store.patchTodo(set.id, todo.id, { completed: !todo.completed });
        if (!todo.completed && session.settings.complete_sound_enabled) playCompleteSound(session.settings.complete_sound_url);
      }),
    assignSelf: (todo) => {
      const ids = todo.assignees.map((a) => a.userId);
      const next = ids.includes(userId) ? ids.filter((id) => id !== userId) : [...ids, userId];
      return tryWrite(() => store.setAssignees(set.id, todo.id, next));
    },
    reorder: (ids) => tryWrite(() => store.reorderTodos(set.id, orderItems(ids))),
    openAssign: setAssigning,
    openMove: setMoving,
    openDelete: setDeleting,
    teamId,
    siblingsOf,
    focusTodo: keyboard.focusTodo,
  };

  const addRoot = async (title: string) => {
    setAddError(null);
    try {
      await store.createTodo(set.id, title, null, newDue);
      setNewDue(NO_DUE);
    } catch (e) {
      setAddError((e as Error).message);
      throw e;
    }
  };

  return (
    <div class="ws-todos" ref={keyboard.ref}>
      {p.create_todos ? <TitleInput label="New todo" placeholder="Add a todo and press Enter" error={addError} onSubmit={addRoot} keepOpen /> : null}
      <div class="ws-list-tools">
        {p.create_todos ? <DueFields label="Due date of the new todo" value={newDue} onChange={setNewDue} /> : null}
        <OrderPicker value={order} onChange={setOrder} />
      </div>
      {roots.length === 0 ? <p class="empty-inline">{p.create_todos ? "Nothing here yet. Type a todo above and press Enter." : "Nothing here yet."}</p> : null}
      {roots.length > 0 && open.length === 0 ? <p class="empty-inline">All done: the completed todos are below.</p> : null}
      {/* biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: the WAI-ARIA tree pattern on the nested list; keyboard/use-tree-keyboard.ts gives it the tree's keys */}
      <ul class="ws-tree" role="tree" aria-label="Todos">
        {open.map((t) => (
          <TodoItem key={t.id} todo={t} actions={actions} />
        ))}
      </ul>
      {done.length > 0 ? (
        <details class="ws-done">
          <summary>Completed ({done.length})</summary>
          {/* biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: as the list above, a second tree */}
          <ul class="ws-tree" role="tree" aria-label="Completed todos">
            {done.map((t) => (
              <TodoItem key={t.id} todo={t} actions={actions} />
            ))}
          </ul>
        </details>
      ) : null}
      {assigning ? (
        <AssignDialog
          todo={assigning}
          members={members}
          onClose={() => setAssigning(null)}
          onSave={(ids) => tryWrite(() => store.setAssignees(set.id, assigning.id, ids))}
        />
      ) : null}
      {moving ? (
        <MoveDialog
          todo={moving}
          sets={sets.filter((s) => s.id !== set.id)}
          onClose={() => setMoving(null)}
          onMove={(targetSetId, insertAt) => inDialog(store.moveTodo(set.id, moving.id, targetSetId, insertAt))}
        />
      ) : null}
      <ConfirmDialog
        open={deleting !== null}
        title="Delete this todo?"
        confirmLabel="Delete"
        onClose={() => setDeleting(null)}
        onConfirm={() => inDialog(store.deleteTodo(set.id, deleting!.id))}
      >
        <p>
          “{deleting?.title}”{deleting && deleting.children.length > 0 ? `, its ${deleting.children.length} sub-todos` : ""} and its comments will be deleted.
          This cannot be undone.
        </p>
      </ConfirmDialog>
    </div>
  );
}

export function findNode(nodes: TodoNode[], id: string): TodoNode | undefined {
  for (const node of nodes) {
    if (node.id === id) return node;
    const found = findNode(node.children, id);
    if (found) return found;
  }
  return undefined;
}
