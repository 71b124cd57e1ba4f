import type { AppContext } from "../../context/context.ts";
import type { DueSoonTodo } from "../../contract/api/workspace.ts";
import { countOf } from "../../shared/wording.ts";
import type { NoticeContent } from "../notices/notice-mail.ts";

export type DigestSection = { teamId: string; teamName: string; todos: DueSoonTodo[] };

/** A digest lists this many todos; the rest are counted ("and 12 more"). */
const MAX_LISTED = 50;

function todoLine(todo: DueSoonTodo, teamName: string): string {
  const when = todo.overdue ? `Overdue (due ${todo.dueDate}${todo.dueTime ? ` ${todo.dueTime}` : ""})` : `Today${todo.dueTime ? ` ${todo.dueTime}` : ""}`;
  return `${when}: “${todo.title}” in ${todo.setName} (${teamName})`;
}

/** The digest's words: grouped by workspace, each in due order (so overdue before today's). */
export function digestContent(ctx: Pick<AppContext, "config">, sections: DigestSection[], localDate: string): NoticeContent {
  const all = sections.flatMap((s) => s.todos.map((todo) => ({ todo, teamName: s.teamName })));
  const overdue = all.filter((e) => e.todo.overdue).length;
  const today = all.length - overdue;
  const lines = all.slice(0, MAX_LISTED).map((e) => todoLine(e.todo, e.teamName));
  if (all.length > MAX_LISTED) lines.push(`And ${all.length - MAX_LISTED} more.`);
  const summary = [today > 0 ? `${today} due today` : null, overdue > 0 ? `${overdue} overdue` : null].filter(Boolean).join(", ");
  const first = sections[0] as DigestSection;
  return {
    subject: `Due today: ${summary}`,
    heading: `What is due on ${localDate}`,
    lines: [`${countOf(all.length, "open todo")} need${all.length === 1 ? "s" : ""} you: ${summary}.`, ...lines],
    action: { label: "Open Due soon", url: `${ctx.config.issuer}/w/${encodeURIComponent(first.teamId)}/due-soon` },
  };
}
