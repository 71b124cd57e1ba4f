import type { ActionKey, Permissions, Todo } from "../../../api/workspace.ts";

export const ACTION_LABELS: Record<ActionKey, string> = {
  add_before: "Add before",
  add_after: "Add after",
  add_subtodo: "Add sub-todo",
  edit: "Edit",
  complete: "Complete",
  assign_self: "Assign me",
  assign: "Assign",
  comment: "Comment",
  move: "Move",
  delete: "Delete",
};

/**
 * Which of the user's action-bar actions this caller may use on this todo: mirrors the server's
 * field permission table (spec 2 section 4.2) only to hide buttons; the server decides.
 */
export function allowedActions(bar: ActionKey[], todo: Todo, userId: string, p: Permissions): ActionKey[] {
  const own = todo.userId === userId;
  const canAddHere = todo.parentId === null ? p.create_todos : p.create_todos && p.add_subtodos;
  const rules: Record<ActionKey, boolean> = {
    add_before: canAddHere,
    add_after: canAddHere,
    add_subtodo: p.create_todos && p.add_subtodos,
    edit: own ? p.edit_own_todos : p.edit_any_todo,
    complete: own || p.complete_any_todo,
    assign_self: p.assign_todos,
    assign: p.assign_todos,
    comment: p.comment || todo.commentCount > 0,
    move: todo.parentId === null && (own ? p.edit_own_todos : p.edit_any_todo),
    delete: own ? p.delete_own_todos : p.delete_any_todo,
  };
  return bar.filter((key) => rules[key]);
}
