import { useState } from "preact/hooks";
import { attemptThenReload } from "./attempt.ts";
import { DEFAULT_ACTION_BAR, type Member, type TodoList, type TodoSet, workspaceApi } from "../../api/workspace.ts";
import { ConfirmDialog } from "../../components/confirm-dialog.tsx";
import { AssignDialog } from "./assign-dialog.tsx";
import { MoveDialog } from "./move-dialog.tsx";
import { TitleInput } from "./title-input.tsx";
import { TodoItem, type TreeActions } from "./todo-item.tsx";
import { buildTree, orderItems, placeAt, splitRoots, type TodoNode } from "./todo-tree.ts";
import type { WorkspaceSession } from "./use-workspace-session.ts";
import { playCompleteSound } from "./workspace-look.ts";

type Props = { session: WorkspaceSession; teamId: string; set: TodoSet; sets: TodoSet[]; list: TodoList; members: Member[]; reload: () => Promise<void> };
export type Composer = { todoId: string; where: "before" | "after" | "sub" } | null;

/** The set's todos as a tree with inline add, edit, complete, assign, comment, move and delete. */
export function TodoTree({ session, teamId, set, sets, list, members, reload }: Props) {
  const [composer, setComposer] = useState<Composer>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const [assigning, setAssigning] = useState<TodoNode | null>(null);
  const [moving, setMoving] = useState<TodoNode | null>(null);
  const [deleting, setDeleting] = useState<TodoNode | null>(null);
  const [addError, setAddError] = useState<string | null>(null);
  const roots = buildTree(list.todos);
  const { open, done } = splitRoots(roots, set.splitCompleted);
  const userId = session.me.user.id;
  const bar = session.settings.action_bar ?? DEFAULT_ACTION_BAR;
  const p = list.permissions;

  const attempt = (work: () => Promise<unknown>) => attemptThenReload(work, reload);
  const siblingsOf = (parentId: string | null) => (parentId === null ? roots : (findNode(roots, parentId)?.children ?? [])).map((t) => t.id);

  const actions: TreeActions = {
    userId,
    bar,
    permissions: p,
    composer,
    editing,
    setComposer,
    setEditing,
    add: async (title, anchor) => {
      const parentId = anchor.where === "sub" ? anchor.todoId : (findNode(roots, anchor.todoId)?.parentId ?? null);
      const created = await workspaceApi.createTodo(teamId, set.id, title, parentId);
      // New todos go to the end of their list; before/after then reorders the siblings.
      if (anchor.where !== "sub") {
        const ids = siblingsOf(parentId);
        const at = ids.indexOf(anchor.todoId) + (anchor.where === "after" ? 1 : 0);
        if (p.reorder_todos) await workspaceApi.reorderTodos(teamId, set.id, orderItems(placeAt(ids, created.id, at)));
      }
      await reload();
    },
    rename: (todo, title) => attempt(() => workspaceApi.patchTodo(teamId, todo.id, { title })),
    toggle: (todo) =>
      attempt(async () => {
        await workspaceApi.patchTodo(teamId, todo.id, { completed: !todo.completed });
        if (!todo.completed && session.settings.complete_sound_enabled) playCompleteSound(session.settings.complete_sound_url);
      }),
    assignSelf: (todo) => {
      const ids = todo.assignees.map((a) => a.userId);
      const next = ids.includes(userId) ? ids.filter((id) => id !== userId) : [...ids, userId];
      return attempt(() => workspaceApi.setAssignees(teamId, todo.id, next));
    },
    reorder: (ids) => attempt(() => workspaceApi.reorderTodos(teamId, set.id, orderItems(ids))),
    openAssign: setAssigning,
    openMove: setMoving,
    openDelete: setDeleting,
    teamId,
    siblingsOf,
  };

  const addRoot = async (title: string) => {
    setAddError(null);
    try {
      await workspaceApi.createTodo(teamId, set.id, title, null);
      await reload();
    } catch (e) {
      setAddError((e as Error).message);
      throw e;
    }
  };

  return (
    <div class="ws-todos">
      {p.create_todos ? <TitleInput label="New todo" placeholder="Add a todo and press Enter" error={addError} onSubmit={addRoot} keepOpen /> : null}
      {roots.length === 0 ? <p class="empty-inline">Nothing here yet.</p> : null}
      <ul class="ws-tree" aria-label="Todos">
        {open.map((t) => (
          <TodoItem key={t.id} todo={t} actions={actions} />
        ))}
      </ul>
      {done.length > 0 ? (
        <details class="ws-done">
          <summary>Completed ({done.length})</summary>
          <ul class="ws-tree" aria-label="Completed todos">
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
          onSave={(ids) => attempt(() => workspaceApi.setAssignees(teamId, assigning.id, ids))}
        />
      ) : null}
      {moving ? (
        <MoveDialog
          todo={moving}
          sets={sets.filter((s) => s.id !== set.id)}
          onClose={() => setMoving(null)}
          onMove={(targetSetId, insertAt) => workspaceApi.moveTodo(teamId, moving.id, targetSetId, insertAt).finally(() => void reload())}
        />
      ) : null}
      <ConfirmDialog
        open={deleting !== null}
        title="Delete this todo?"
        confirmLabel="Delete"
        onClose={() => setDeleting(null)}
        onConfirm={() => workspaceApi.deleteTodo(teamId, deleting!.id).finally(() => void reload())}
      >
        <p>
          “{deleting?.title}”{deleting && deleting.children.length > 0 ? `, its ${deleting.children.length} sub-todos` : ""} and its comments will be deleted. This cannot be undone.
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
