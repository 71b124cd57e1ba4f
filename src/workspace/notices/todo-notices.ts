import type { AppContext } from "../../context/context.ts";
import type { MemberActor } from "../permissions/actor.ts";
import { findSet, type TodoRow } from "../storage/todos.repo.ts";
import { headerLine } from "../../shared/text.ts";
import { enqueueNotice, type NoticeMailCtx } from "./notice-mail.ts";
import { type NoticeRecipient, noticeRecipient, type RecipientCtx } from "./recipients.ts";

export type TodoNoticeCtx = NoticeMailCtx & RecipientCtx & Pick<AppContext, "workspace">;

/** The SPA page of a set (the todo's list). */
export const setUrl = (ctx: Pick<AppContext, "config">, teamId: string, setId: string) =>
  `${ctx.config.issuer}/w/${encodeURIComponent(teamId)}/sets/${encodeURIComponent(setId)}`;

const nameOf = (actor: MemberActor) => actor.session.name || actor.session.username || "Someone";
const teamName = (to: NoticeRecipient, teamId: string) => to.actor.session.teams.find((t) => t.id === teamId)?.name || "your team";

/** Where the todo lives and when it is due, as one line of the mail. */
async function placeLine(ctx: TodoNoticeCtx, to: NoticeRecipient, todo: TodoRow): Promise<string> {
  const set = (await findSet(ctx, todo.teamId, todo.setId))?.name ?? "a set";
  const due = todo.dueDate ? `, due ${todo.dueDate}${todo.dueTime ? ` ${todo.dueTime}` : ""}` : "";
  return `In ${set} (${teamName(to, todo.teamId)})${due}.`;
}

type TodoNoticeKind = "todo_assigned" | "todo_comment";

/**
 * Mail about `todo` to each of `userIds` but the caller, who turned `kind` on and may see the
 * todo (noticeRecipient), in the words `words` gives for the caller's name. In the caller's transaction.
 */
async function noticeEach(
  ctx: TodoNoticeCtx,
  caller: MemberActor,
  todo: TodoRow,
  userIds: Iterable<string>,
  kind: TodoNoticeKind,
  words: (who: string) => { subject: string; heading: string; lines: string[] },
): Promise<void> {
  for (const userId of new Set(userIds)) {
    if (userId === caller.userId) continue;
    const to = await noticeRecipient(ctx, userId, kind, todo.teamId, todo.setId);
    if (!to) continue;
    const { subject, heading, lines } = words(nameOf(caller));
    const action = { label: "Open the list", url: setUrl(ctx, todo.teamId, todo.setId) };
    await enqueueNotice(ctx, to, kind, { subject, heading, lines: [...lines, await placeLine(ctx, to, todo)], action });
  }
}

/** Issue 44: mail to each person newly assigned `todo` by someone else (not to one assigning themselves). */
export function noticeAssignment(ctx: TodoNoticeCtx, caller: MemberActor, todo: TodoRow, added: readonly string[]): Promise<void> {
  return noticeEach(ctx, caller, todo, added, "todo_assigned", (who) => ({
    subject: `${headerLine(who, 40)} assigned you “${headerLine(todo.title)}”`,
    heading: `${who} assigned you a todo`,
    lines: [`“${todo.title}”`],
  }));
}

/** A comment's text as the mail quotes it: enough to read, not a whole essay. */
const QUOTE_CHARS = 2000;

/** Issue 44: mail about a new comment to the todo's creator and its assignees, never to its author. */
export function noticeComment(ctx: TodoNoticeCtx, caller: MemberActor, todo: TodoRow, assigneeIds: readonly string[], body: string): Promise<void> {
  const quote = body.length > QUOTE_CHARS ? `${body.slice(0, QUOTE_CHARS - 1)}…` : body;
  return noticeEach(ctx, caller, todo, [todo.userId, ...assigneeIds], "todo_comment", (who) => ({
    subject: `${headerLine(who, 40)} commented on “${headerLine(todo.title)}”`,
    heading: `${who} commented on “${todo.title}”`,
    lines: quote.split(/\n{2,}/),
  }));
}
