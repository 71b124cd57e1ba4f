/** The workspace's mail notices (issue 44), each a user setting that is off until turned on. */
export const NOTICE_SETTINGS = {
  todo_assigned: "notify_assigned",
  todo_comment: "notify_comments",
  due_digest: "notify_due_digest",
} as const;

export type NoticeKind = keyof typeof NOTICE_SETTINGS;

export const isNoticeKind = (value: string): value is NoticeKind => Object.hasOwn(NOTICE_SETTINGS, value);

/** What each kind is, as the unsubscribe page and the mail's footer name it. */
export const NOTICE_NAMES: Record<NoticeKind, string> = {
  todo_assigned: "mail when someone assigns you a todo",
  todo_comment: "mail about comments on your todos",
  due_digest: "the daily mail of what is due",
};
