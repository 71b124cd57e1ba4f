import type { Todo, TodoList } from "../../../api/workspace.ts";
import { keyOf, type PageKey, type PageRange, rangeMerged } from "./todo-pages.ts";

/** The first page is small, to show it at once; the rest come in larger pages, in the background. */
export const FIRST_PAGE = 200;
export const LATER_PAGE = 1000;
/** Pages gathered for this long are shown together: one render per batch, not per page. */
const BATCH_MS = 250;
/** A batch that a change overtook is read again, at most this many times in a row. */
const RETRIES = 3;

export type PageRequest = { limit: number; cursor?: string };

/** What one walk through a set's pages needs from the store. */
export type Sweep = {
  fetch(page: PageRequest): Promise<TodoList>;
  /** False once the set closed or a newer walk began: this one then stops. */
  current(): boolean;
  /** How many changes to the open set the page has applied so far (events and its own writes). */
  changes(): number;
  /** Puts a batch into the list (`merge` takes the list so far, null before the first), `done` with the last. */
  apply(merge: (list: TodoList | null) => TodoList, done: boolean): void;
  /** Between batches: lets the browser handle input and paint. */
  pause(): Promise<void>;
  now(): number;
};

/**
 * One walk through the set's pages (issue 43): the first page is shown at once, then batches of
 * pages as they come. A batch read while a change reached the page (an event, the page's own
 * write) may predate that change, so it is read again before it is shown; a range a batch covers
 * replaces what the list held for it (todo-pages.ts). Resolves false when a batch had to be kept
 * although a change overtook it every time (a very busy set): the caller walks again later.
 */
export async function sweepPages(s: Sweep): Promise<boolean> {
  let cursor: string | undefined;
  let after: PageKey | null = null;
  let clean = true;
  let attempts = 0;
  for (let first = true; ; ) {
    const seen = s.changes();
    const started = s.now();
    const fetched: Todo[] = [];
    let head: TodoList | null = null;
    let at = cursor;
    do {
      const page: TodoList = await s.fetch({ limit: first ? FIRST_PAGE : LATER_PAGE, ...(at === undefined ? {} : { cursor: at }) });
      if (!s.current()) return clean;
      head = page;
      fetched.push(...page.todos);
      at = page.nextCursor ?? undefined;
    } while (at !== undefined && !first && s.now() - started < BATCH_MS);
    if (s.changes() !== seen) {
      if (attempts++ < RETRIES) continue;
      clean = false;
    }
    attempts = 0;
    const done = at === undefined;
    const last = fetched.at(-1);
    const range: PageRange = { after, upTo: done || !last ? null : keyOf(last) };
    const answer = head as TodoList;
    s.apply((list) => ({ todos: list === null ? fetched : rangeMerged(list.todos, fetched, range), role: answer.role, permissions: answer.permissions }), done);
    if (done) return clean;
    after = range.upTo;
    cursor = at;
    first = false;
    await s.pause();
  }
}
