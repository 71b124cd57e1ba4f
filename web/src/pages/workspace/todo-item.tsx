import type { ActionKey, Permissions } from "../../api/workspace.ts";
import { MenuButton } from "../../components/menu-button.tsx";
import { CommentIcon } from "../../components/comment-icon.tsx";
import { CommentsPanel } from "./comments-panel.tsx";
import { dragProps } from "./drag.ts";
import { ACTION_LABELS, allowedActions } from "./model/todo-actions.ts";
import type { TodoNode } from "./model/todo-tree.ts";
import { TitleEditor, TitleInput } from "./title-input.tsx";
import { DueFields } from "./due-fields.tsx";
import { DueLabel } from "./due-label.tsx";
import type { Due, LocalNow } from "./model/due.ts";
import { useState } from "preact/hooks";

/** Where a new todo is being typed: before, after or under another. */
export type Composer = { todoId: string; where: "before" | "after" | "sub" } | null;

export type TreeActions = {
  teamId: string;
  userId: string;
  bar: ActionKey[];
  permissions: Permissions;
  /** A touch screen: no hover to reveal the bar, so it shows its first actions and a More menu. */
  touch: boolean;
  composer: Composer;
  editing: string | null;
  setComposer: (c: Composer) => void;
  setEditing: (id: string | null) => void;
  /** Adds a todo and returns its id. */
  add: (title: string, anchor: NonNullable<Composer>) => Promise<string>;
  rename: (todo: TodoNode, title: string) => Promise<boolean>;
  /** Sets or clears the due date and time together. */
  setDue: (todo: TodoNode, due: Due) => Promise<boolean>;
  /** "Now" in the set's time zone, which due dates are read in. */
  now: LocalNow;
  toggle: (todo: TodoNode) => Promise<boolean>;
  assignSelf: (todo: TodoNode) => Promise<boolean>;
  reorder: (ids: string[]) => Promise<boolean>;
  openAssign: (todo: TodoNode) => void;
  openMove: (todo: TodoNode) => void;
  openDelete: (todo: TodoNode) => void;
  siblingsOf: (parentId: string | null) => string[];
  /** Focuses a todo's row, now or once it is rendered (see keyboard/use-tree-keyboard.ts). */
  focusTodo: (id: string) => void;
};

/** On touch screens, how many of the bar's actions stay buttons; the rest go to the More menu. */
const TOUCH_INLINE = 2;

const initials = (name: string | null, username: string | null) => (name || username || "?").trim().slice(0, 1).toUpperCase();

/** One todo: checkbox, title (inline edit), assignees, the action bar, its comments and sub-todos. */
export function TodoItem({ todo, actions, level = 1 }: { todo: TodoNode; actions: TreeActions; level?: number }) {
  const [commentsOpen, setCommentsOpen] = useState(false);
  const a = actions;
  const allowed = allowedActions(a.bar, todo, a.userId, a.permissions);
  const canComplete = todo.userId === a.userId || a.permissions.complete_any_todo;
  const composerHere = a.composer?.todoId === todo.id ? a.composer.where : null;
  const siblings = a.siblingsOf(todo.parentId);
  const mine = todo.assignees.some((m) => m.userId === a.userId);
  const folded = a.touch && allowed.length > TOUCH_INLINE + 1;
  const inline = folded ? allowed.slice(0, TOUCH_INLINE) : allowed;
  const more = folded ? allowed.slice(TOUCH_INLINE) : [];

  const run = (key: ActionKey) => {
    if (key === "add_before") a.setComposer({ todoId: todo.id, where: "before" });
    else if (key === "add_after") a.setComposer({ todoId: todo.id, where: "after" });
    else if (key === "add_subtodo") a.setComposer({ todoId: todo.id, where: "sub" });
    else if (key === "edit") a.setEditing(todo.id);
    else if (key === "complete") void a.toggle(todo);
    else if (key === "assign_self") void a.assignSelf(todo);
    else if (key === "assign") a.openAssign(todo);
    else if (key === "comment") setCommentsOpen(!commentsOpen);
    else if (key === "move") a.openMove(todo);
    else if (key === "delete") a.openDelete(todo);
  };
  const label = (key: ActionKey) => (key === "complete" && todo.completed ? "Reopen" : key === "assign_self" && mine ? "Unassign me" : ACTION_LABELS[key]);
  const closeEditor = () => {
    a.setEditing(null);
    a.focusTodo(todo.id);
  };
  const closeComposer = () => {
    a.setComposer(null);
    a.focusTodo(todo.id);
  };
  // A sub-todo field stays open for the next one; before/after hands focus to the new todo.
  const composer = (where: "before" | "after" | "sub") =>
    composerHere === where ? (
      <li class="ws-composer" role="none">
        <TitleInput
          label={where === "sub" ? `New sub-todo of ${todo.title}` : `New todo ${where} ${todo.title}`}
          autoFocus
          keepOpen={where === "sub"}
          onSubmit={async (title) => {
            const id = await a.add(title, { todoId: todo.id, where });
            if (where === "sub") return;
            a.setComposer(null);
            a.focusTodo(id);
          }}
          onCancel={closeComposer}
        />
      </li>
    ) : null;

  return (
    <>
      {composer("before")}
      <li
        class={`ws-todo${todo.completed ? " done" : ""}`}
        data-todo-id={todo.id}
        {...dragProps(siblings, todo.id, a.permissions.reorder_todos, (ids) => void a.reorder(ids), `todo-${todo.parentId ?? "root"}`)}
        // A tree item (keyboard/roving-tree.ts sets which row is the Tab stop); rows are never collapsed.
        role="treeitem"
        tabIndex={-1}
        aria-label={todo.title}
        // The due is read with the row as the screen reader arrives on it, not only in reading mode.
        aria-describedby={todo.dueDate ? `due-${todo.id}` : undefined}
        aria-level={level}
        aria-checked={todo.completed}
        aria-expanded={todo.children.length > 0 ? true : undefined}
      >
        <div class="ws-todo-row">
          <input
            type="checkbox"
            class="ws-check"
            checked={todo.completed}
            disabled={!canComplete}
            aria-label={`Complete ${todo.title}`}
            onChange={() => void a.toggle(todo)}
          />
          {a.editing === todo.id ? (
            <TitleEditor title={todo.title} rename={(title) => a.rename(todo, title)} close={closeEditor} />
          ) : (
            // biome-ignore lint/a11y/noStaticElementInteractions: a double-click shortcut; the toolbar's Edit button is the way for keyboards
            <span class="ws-title grow break" onDblClick={() => allowed.includes("edit") && a.setEditing(todo.id)}>
              {todo.title}
            </span>
          )}
          <DueLabel due={todo} now={a.now} id={`due-${todo.id}`} />
          {todo.assignees.length > 0 ? (
            <span class="ws-assignees" role="img" aria-label={`Assigned to ${todo.assignees.map((m) => m.name || m.username || "someone").join(", ")}`}>
              {todo.assignees.map((m) =>
                m.avatarUrl ? (
                  <img key={m.userId} class="ws-avatar" src={m.avatarUrl} alt="" title={m.name ?? m.username ?? ""} />
                ) : (
                  <span key={m.userId} class="ws-avatar" title={m.name ?? m.username ?? ""}>
                    {initials(m.name, m.username)}
                  </span>
                ),
              )}
            </span>
          ) : null}
          {todo.commentCount > 0 ? (
            <button
              type="button"
              class="ws-comment-count"
              aria-label={`${todo.commentCount} ${todo.commentCount === 1 ? "comment" : "comments"} on ${todo.title}`}
              onClick={() => setCommentsOpen(!commentsOpen)}
            >
              <CommentIcon />
              {todo.commentCount}
            </button>
          ) : null}
        </div>
        {a.editing === todo.id ? (
          <DueFields label={`Due date of ${todo.title}`} value={todo} onChange={(due) => void a.setDue(todo, due)} onDone={closeEditor} />
        ) : null}
        {allowed.length > 0 ? (
          <div class="ws-actions" role="toolbar" aria-label={`Actions for ${todo.title}`}>
            {inline.map((key) => (
              <button key={key} type="button" class="ws-action" data-action={key} onClick={() => run(key)}>
                {label(key)}
              </button>
            ))}
            {more.length > 0 ? (
              <MenuButton
                label={`More actions for ${todo.title}`}
                text="More"
                class="ws-action ws-more"
                items={more.map((key) => ({ key, label: label(key), danger: key === "delete", onSelect: () => run(key) }))}
              />
            ) : null}
          </div>
        ) : null}
        {commentsOpen ? <CommentsPanel teamId={a.teamId} todo={todo} userId={a.userId} permissions={a.permissions} /> : null}
        {todo.children.length > 0 || composerHere === "sub" ? (
          // biome-ignore lint/a11y/useSemanticElements: a tree's sub-todos are its "group" (WAI-ARIA tree pattern), not a fieldset
          <ul class="ws-tree ws-sub" role="group" aria-label={`Sub-todos of ${todo.title}`}>
            {todo.children.map((child) => (
              <TodoItem key={child.id} todo={child} actions={a} level={level + 1} />
            ))}
            {composer("sub")}
          </ul>
        ) : null}
      </li>
      {composer("after")}
    </>
  );
}
