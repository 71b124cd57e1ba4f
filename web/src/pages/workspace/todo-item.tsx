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
import { memo } from "preact/compat";
import { useState } from "preact/hooks";
import { type Signal, useComputed } from "@preact/signals";

/** Where a new todo is being typed: before, after or under another. */
export type Composer = { todoId: string; where: "before" | "after" | "sub" } | null;

/**
 * What changes on one or two rows at a time (the composer, the row being edited) or on the dated
 * rows only (the clock), as signals: each row follows its own part, so opening an editor renders
 * that row, not the thousands of others (issue 43).
 */
export type TreeUi = { composer: Signal<Composer>; editing: Signal<string | null>; now: Signal<LocalNow> };

/**
 * The tree's actions and settings, one object for the tree's life whose fields read the latest
 * values: rows that did not change are not rendered again, and still act on the tree as it is.
 */
export type TreeActions = {
  teamId: string;
  userId: string;
  bar: ActionKey[];
  permissions: Permissions;
  /** A touch screen: no hover to reveal the bar, so it shows its first actions and a More menu. */
  touch: boolean;
  ui: TreeUi;
  /** Adds a todo and returns its id. */
  add: (title: string, anchor: NonNullable<Composer>) => Promise<string>;
  rename: (todo: TodoNode, title: string) => Promise<boolean>;
  /** Sets or clears the due date and time together. */
  setDue: (todo: TodoNode, due: Due) => Promise<boolean>;
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

type ItemProps = {
  todo: TodoNode;
  actions: TreeActions;
  /** Changes when a setting every row shows changes (permissions, the action bar): all rows render again. */
  look: string;
  level?: number;
};

/**
 * One todo: checkbox, title (inline edit), assignees, the action bar, its comments and sub-todos.
 * Rendered again only when its todo (or a sub-todo) or `look` changes, or its part of the tree's
 * signals does.
 */
export const TodoItem = memo(function TodoItem({ todo, actions, look, level = 1 }: ItemProps) {
  const [commentsOpen, setCommentsOpen] = useState(false);
  const a = actions;
  const allowed = allowedActions(a.bar, todo, a.userId, a.permissions);
  const canComplete = todo.userId === a.userId || a.permissions.complete_any_todo;
  const composerHere = useComputed(() => {
    const c = a.ui.composer.value;
    return c?.todoId === todo.id ? c.where : null;
  }).value;
  const editing = useComputed(() => a.ui.editing.value === todo.id).value;
  // Only a dated row follows the clock.
  const now = todo.dueDate === null ? null : a.ui.now.value;
  const setComposer = (c: Composer) => {
    a.ui.composer.value = c;
  };
  const setEditing = (id: string | null) => {
    a.ui.editing.value = id;
  };
  const mine = todo.assignees.some((m) => m.userId === a.userId);
  const folded = a.touch && allowed.length > TOUCH_INLINE + 1;
  const inline = folded ? allowed.slice(0, TOUCH_INLINE) : allowed;
  const more = folded ? allowed.slice(TOUCH_INLINE) : [];

  const run = (key: ActionKey) => {
    if (key === "add_before") setComposer({ todoId: todo.id, where: "before" });
    else if (key === "add_after") setComposer({ todoId: todo.id, where: "after" });
    else if (key === "add_subtodo") setComposer({ todoId: todo.id, where: "sub" });
    else if (key === "edit") setEditing(todo.id);
    else if (key === "complete") void a.toggle(todo);
    else if (key === "assign_self") void a.assignSelf(todo);
    else if (key === "assign") a.openAssign(todo);
    else if (key === "comment") setCommentsOpen(!commentsOpen);
    else if (key === "move") a.openMove(todo);
    else if (key === "delete") a.openDelete(todo);
  };
  const label = (key: ActionKey) => (key === "complete" && todo.completed ? "Reopen" : key === "assign_self" && mine ? "Unassign me" : ACTION_LABELS[key]);
  const closeEditor = () => {
    setEditing(null);
    a.focusTodo(todo.id);
  };
  const closeComposer = () => {
    setComposer(null);
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
            setComposer(null);
            a.focusTodo(id);
          }}
          onCancel={closeComposer}
        />
      </li>
    ) : null;

  const row = (
    <li
      class={`ws-todo${todo.completed ? " done" : ""}`}
      data-todo-id={todo.id}
      {...dragProps(
        () => a.siblingsOf(todo.parentId),
        todo.id,
        a.permissions.reorder_todos,
        (ids) => void a.reorder(ids),
        `todo-${todo.parentId ?? "root"}`,
      )}
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
        {editing ? (
          <TitleEditor title={todo.title} rename={(title) => a.rename(todo, title)} close={closeEditor} />
        ) : (
          // biome-ignore lint/a11y/noStaticElementInteractions: a double-click shortcut; the toolbar's Edit button is the way for keyboards
          <span class="ws-title grow break" onDblClick={() => allowed.includes("edit") && setEditing(todo.id)}>
            {todo.title}
          </span>
        )}
        {now ? <DueLabel due={todo} now={now} id={`due-${todo.id}`} /> : null}
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
      {editing ? <DueFields label={`Due date of ${todo.title}`} value={todo} onChange={(due) => void a.setDue(todo, due)} onDone={closeEditor} /> : null}
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
            <TodoItem key={child.id} todo={child} actions={a} look={look} level={level + 1} />
          ))}
          {composer("sub")}
        </ul>
      ) : null}
    </li>
  );
  // A Fragment only while a composer is open beside the row: as the list's direct child, a lone
  // element lets Preact keep long lists in place instead of checking each row's position.
  if (composerHere !== "before" && composerHere !== "after") return row;
  return (
    <>
      {composer("before")}
      {row}
      {composer("after")}
    </>
  );
});
