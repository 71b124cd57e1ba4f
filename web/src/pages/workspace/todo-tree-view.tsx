import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { signal } from "@preact/signals";
import { DEFAULT_ACTION_BAR, type Member, type TodoList, type TodoSet } from "../../api/workspace.ts";
import { ConfirmDialog } from "../../components/confirm-dialog.tsx";
import { AssignDialog } from "./assign-dialog.tsx";
import { attempt } from "./attempt.ts";
import { MoveDialog } from "./move-dialog.tsx";
import { TitleInput } from "./title-input.tsx";
import type { WorkspaceStore } from "./store/workspace-store.ts";
import { type Composer, TodoItem, type TreeActions, type TreeUi } from "./todo-item.tsx";
import { orderItems, placeAt, splitRoots, type TodoNode, treeBuilder } from "./model/todo-tree.ts";
import type { WorkspaceSession } from "./use-workspace-session.ts";
import { playCompleteSound } from "./model/workspace-look.ts";
import { useMediaQuery } from "../../lib/use-media-query.ts";
import { useTreeKeyboard } from "./keyboard/use-tree-keyboard.ts";
import { DueFields, NO_DUE } from "./due-fields.tsx";
import { useLocalNow } from "./due-label.tsx";
import { type Due, sortTreeByDue } from "./model/due.ts";
import { OrderPicker, useTodoOrder } from "./todo-order.tsx";
import { withoutOrphans } from "./store/todo-pages.ts";
import { sameItems, useChunks } from "./use-chunks.tsx";
import { memo } from "preact/compat";

type Props = {
  session: WorkspaceSession;
  teamId: string;
  set: TodoSet;
  sets: TodoSet[];
  list: TodoList;
  /** More pages are still coming (issue 43): sub-todos whose parent has not come yet wait. */
  loading: boolean;
  members: Member[];
  store: WorkspaceStore;
  /** The set's effective time zone, which its due dates are read in. */
  timezone: string;
};

/** The set's todos as a tree with inline add, edit, complete, assign, comment, move and delete. */
export function TodoTree({ session, teamId, set, sets, list, loading, members, store, timezone }: Props) {
  const [assigning, setAssigning] = useState<TodoNode | null>(null);
  const [moving, setMoving] = useState<TodoNode | null>(null);
  const [deleting, setDeleting] = useState<TodoNode | null>(null);
  const [addError, setAddError] = useState<string | null>(null);
  const [order, setOrder] = useTodoOrder(set.id);
  // Built once per change of the list, not per render, keeping the nodes that did not change: a set may hold 100,000 todos.
  const build = useMemo(treeBuilder, []);
  const { roots, shownRoots, siblings } = useMemo(() => {
    const roots = build(loading ? withoutOrphans(list.todos) : list.todos);
    return { roots, shownRoots: order === "due" ? sortTreeByDue(roots) : roots, siblings: siblingIds(roots) };
  }, [list.todos, loading, order]);
  const [newDue, setNewDue] = useState<Due>(NO_DUE);
  const now = useLocalNow(timezone);
  const ui = useMemo<TreeUi>(() => ({ composer: signal<Composer>(null), editing: signal<string | null>(null), now: signal(now) }), []);
  useEffect(() => {
    ui.now.value = now;
  }, [now.date, now.time]);
  const { open, done } = useMemo(() => splitRoots(shownRoots, set.splitCompleted), [shownRoots, set.splitCompleted]);
  const openRows = useChunks(open);
  const doneRows = useChunks(done);
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
  const siblingsOf = (parentId: string | null) => siblings.get(parentId) ?? [];

  const latest: TreeActions = {
    userId,
    bar,
    // Sorted by due date, the rows are not in their stored order: no dragging them.
    permissions: order === "due" ? { ...p, reorder_todos: false } : p,
    touch,
    ui,
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
  const current = useRef(latest);
  current.current = latest;
  const actions = useMemo(() => readingLatest(current), []);
  const look = `${userId}|${teamId}|${touch}|${bar.join(",")}|${JSON.stringify(latest.permissions)}`;

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
        {loading ? (
          // Announced once; the count moves with every batch, so it stays out of the live region.
          <span class="muted small">
            <span role="status">Loading more todos…</span> <span aria-hidden="true">{list.todos.length.toLocaleString("en")} so far</span>
          </span>
        ) : null}
      </div>
      {roots.length === 0 && !loading ? (
        <p class="empty-inline">{p.create_todos ? "Nothing here yet. Type a todo above and press Enter." : "Nothing here yet."}</p>
      ) : null}
      {roots.length > 0 && open.length === 0 ? <p class="empty-inline">All done: the completed todos are below.</p> : null}
      {/* biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: the WAI-ARIA tree pattern on the nested list; keyboard/use-tree-keyboard.ts gives it the tree's keys */}
      <ul class="ws-tree" role="tree" aria-label="Todos">
        {openRows.chunks.map((items, k) => (
          <RowChunk key={k} items={items} actions={actions} look={look} />
        ))}
      </ul>
      {openRows.marker}
      {done.length > 0 ? (
        <details class="ws-done">
          <summary>Completed ({done.length})</summary>
          {/* biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: as the list above, a second tree */}
          <ul class="ws-tree" role="tree" aria-label="Completed todos">
            {doneRows.chunks.map((items, k) => (
              <RowChunk key={k} items={items} actions={actions} look={look} />
            ))}
          </ul>
          {doneRows.marker}
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

type ChunkProps = { items: TodoNode[]; actions: TreeActions; look: string };
/** One chunk of top-level rows: the list renders its chunks, and a chunk whose rows did not change is skipped whole. */
const RowChunk = memo(
  ({ items, actions, look }: ChunkProps) => (
    <>
      {items.map((t) => (
        <TodoItem key={t.id} todo={t} actions={actions} look={look} />
      ))}
    </>
  ),
  (a: ChunkProps, b: ChunkProps) => a.look === b.look && a.actions === b.actions && sameItems(a.items, b.items),
);

/** An object whose fields read `ref`'s current value: one identity for the tree's life. */
function readingLatest<T extends object>(ref: { current: T }): T {
  const view = {} as T;
  for (const key of Object.keys(ref.current)) Object.defineProperty(view, key, { get: () => ref.current[key as keyof T], enumerable: true });
  return view;
}

/** Each parent's children's ids in their stored order (null: the top level), for reordering among siblings. */
function siblingIds(roots: TodoNode[]): Map<string | null, string[]> {
  const map = new Map<string | null, string[]>([[null, roots.map((t) => t.id)]]);
  const walk = (nodes: TodoNode[]) => {
    for (const node of nodes)
      if (node.children.length > 0) {
        map.set(
          node.id,
          node.children.map((c) => c.id),
        );
        walk(node.children);
      }
  };
  walk(roots);
  return map;
}

export function findNode(nodes: TodoNode[], id: string): TodoNode | undefined {
  for (const node of nodes) {
    if (node.id === id) return node;
    const found = findNode(node.children, id);
    if (found) return found;
  }
  return undefined;
}
