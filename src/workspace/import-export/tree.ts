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

/** A todo with its sub-todos, in sort order; comments only when asked for. */
export type TreeTodo = {
  title: string;
  completed: boolean;
  comments?: TreeComment[];
  children: TreeTodo[];
};

export type TreeComment = { author: string | null; body: string; createdAt: string };

export const EXPORT_FORMATS = ["md", "json", "yaml"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
