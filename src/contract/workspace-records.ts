// The workspace's JSON records (spec 2 section 2), as the API answers them and events carry them.

/** A team member as todos, comments and the member list show them. */
export type Member = { userId: string; name: string | null; username: string | null; avatarUrl: string | null };

/** Spec 2 section 2.2. */
export type Todo = {
  id: string;
  userId: string;
  parentId: string | null;
  title: string;
  completed: boolean;
  sortOrder: number;
  commentCount: number;
  assignees: Member[];
  createdAt: string;
  updatedAt: string;
};

/** Spec 2 section 2.1, as every answer and event shows a set. */
export type SetFields = {
  id: string;
  userId: string;
  name: string;
  sortOrder: number;
  autoRenew: boolean;
  renewTime: string;
  timezone: string;
  lastRenewedAt: string | null;
  splitCompleted: boolean;
  createdAt: string;
};

/** Spec 2 section 2.1: the list endpoint only; counts of top-level todos. */
export type SetCounts = { total: number; completed: number; pending: number };

export type Comment = { id: string; todoId: string; userId: string; body: string; author: Member; createdAt: string };

/** Spec 2 section 4.1 and 4.2 reorder items: consistent integers chosen by the caller. */
export type SortItem = { id: string; sortOrder: number };
