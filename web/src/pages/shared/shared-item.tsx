import type { Capabilities } from "../../api/share-links.ts";
import { dragProps } from "../workspace/drag.ts";
import { TitleEditor, TitleInput } from "../workspace/title-input.tsx";
import type { TodoNode } from "../workspace/model/todo-tree.ts";
import { DueLabel } from "../workspace/due-label.tsx";
import type { LocalNow } from "../workspace/model/due.ts";

export type SharedActions = {
  permissions: Capabilities;
  /** "Now" in the set's time zone, which due dates are read in. */
  now: LocalNow;
  /** The todo whose sub-todo composer is open. */
  composer: string | null;
  editing: string | null;
  setComposer: (id: string | null) => void;
  setEditing: (id: string | null) => void;
  siblingsOf: (parentId: string | null) => string[];
  addSub: (parent: TodoNode, title: string) => Promise<void>;
  rename: (todo: TodoNode, title: string) => Promise<boolean>;
  toggle: (todo: TodoNode) => Promise<boolean>;
  reorder: (ids: string[]) => Promise<boolean>;
  openDelete: (todo: TodoNode) => void;
};

/** One shared todo: checkbox, title, the link's allowed actions, and its sub-todos. */
export function SharedItem({ todo, actions: a }: { todo: TodoNode; actions: SharedActions }) {
  const p = a.permissions;
  const editing = a.editing === todo.id;
  const composing = a.composer === todo.id;
  const buttons = [
    p.canCreate ? { key: "add_subtodo", label: "Add sub-todo", run: () => a.setComposer(todo.id) } : null,
    p.canEdit ? { key: "edit", label: "Edit", run: () => a.setEditing(todo.id) } : null,
    p.canDelete ? { key: "delete", label: "Delete", run: () => a.openDelete(todo) } : null,
  ].filter((b) => b !== null);
  const drag = dragProps(a.siblingsOf(todo.parentId), todo.id, p.canReorder, (ids) => void a.reorder(ids), `shared-${todo.parentId ?? "root"}`);

  return (
    <li class={`ws-todo${todo.completed ? " done" : ""}`} data-todo-id={todo.id} {...drag}>
      <div class="ws-todo-row">
        <input
          type="checkbox"
          class="ws-check"
          checked={todo.completed}
          disabled={!p.canComplete}
          aria-label={`Complete ${todo.title}`}
          title={p.canComplete ? undefined : "This link does not allow ticking todos."}
          onChange={() => void a.toggle(todo)}
        />
        {editing ? (
          <TitleEditor title={todo.title} rename={(title) => a.rename(todo, title)} close={() => a.setEditing(null)} />
        ) : (
          // biome-ignore lint/a11y/noStaticElementInteractions: a double-click shortcut; the toolbar's Edit button is the way for keyboards
          <span class="ws-title grow break" onDblClick={() => p.canEdit && a.setEditing(todo.id)}>
            {todo.title}
          </span>
        )}
        <DueLabel due={todo} now={a.now} />
      </div>
      {buttons.length > 0 ? (
        <div class="ws-actions" role="toolbar" aria-label={`Actions for ${todo.title}`}>
          {buttons.map((b) => (
            <button key={b.key} type="button" class="ws-action" data-action={b.key} onClick={b.run}>
              {b.label}
            </button>
          ))}
        </div>
      ) : null}
      {todo.children.length > 0 || composing ? (
        <ul class="ws-tree ws-sub" aria-label={`Sub-todos of ${todo.title}`}>
          {todo.children.map((child) => (
            <SharedItem key={child.id} todo={child} actions={a} />
          ))}
          {composing ? (
            <li class="ws-composer">
              <TitleInput
                label={`New sub-todo of ${todo.title}`}
                autoFocus
                onSubmit={async (title) => {
                  await a.addSub(todo, title);
                  a.setComposer(null);
                }}
                onCancel={() => a.setComposer(null)}
              />
            </li>
          ) : null}
        </ul>
      ) : null}
    </li>
  );
}
