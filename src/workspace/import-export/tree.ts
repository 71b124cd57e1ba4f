/** A set as import and export see it: its settings and its todo tree, in order. */
export type SetSnapshot = {
  /** Only JSON and YAML carry it (spec 2 section 4.1: `setId` for JSON/YAML only). */
  id?: string;
  name: string;
  autoRenew: boolean;
  renewTime: string;
  timezone: string;
  splitCompleted: boolean;
  todos: TreeTodo[];
};

/** A todo with its sub-todos, in sort order; comments only when asked for; a due only when it has one. */
export type TreeTodo = {
  title: string;
  completed: boolean;
  /** `YYYY-MM-DD` in the set's time zone, as the API's `dueDate`. */
  dueDate?: string;
  /** `HH:MM`, only beside a dueDate. */
  dueTime?: string;
  comments?: TreeComment[];
  children: TreeTodo[];
};

/** The todo's due keys, none when it has no due (a tree's todos never hold `undefined` ones). */
export const dueOf = ({ dueDate, dueTime }: { dueDate?: string | null; dueTime?: string | null }): Pick<TreeTodo, "dueDate" | "dueTime"> => ({
  ...(dueDate ? { dueDate } : {}),
  ...(dueDate && dueTime ? { dueTime } : {}),
});

export type TreeComment = { author: string | null; body: string; createdAt: string };

export const EXPORT_FORMATS = ["md", "json", "yaml"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
