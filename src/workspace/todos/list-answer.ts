import type { AppContext } from "../../context/context.ts";
import type { SetRow } from "../storage/todos.repo.ts";
import { FIRST_PAGE, type PageStart, readSetTodos, readTodoPage, type TodoOrder } from "../storage/todos.list.ts";
import * as E from "./todos.errors.ts";

type Ctx = Pick<AppContext, "db" | "workspace">;

/** The list's query: `sort` for the whole list; `limit` and `cursor` for a page (issue 43, additive). */
export type ListQuery = { sort?: TodoOrder; limit?: number; cursor?: string };
/** The whole set (the spec's answer), or one page of it. */
export type ListRequest = { order: TodoOrder } | { start: PageStart; limit: number };

/** A page when no limit is given with a cursor: what the SPA asks for first. */
export const DEFAULT_PAGE = 200;
export const MAX_PAGE = 1000;

const CURSOR = /^(\d{1,15})\.([^\s]{1,200})$/;
/** Opaque to clients: where the next page starts, base64url. */
export const encodeCursor = (start: PageStart) => Buffer.from(`${start.createdAt}.${start.id}`).toString("base64url");

function decodeCursor(cursor: string): PageStart {
  const match = /^[\w-]{1,400}$/.test(cursor) ? CURSOR.exec(Buffer.from(cursor, "base64url").toString("utf8")) : null;
  if (!match) throw E.invalidCursor();
  return { createdAt: Number(match[1]), id: match[2] as string };
}

/** What the query asks for; `sort` and a page together are refused (pages come in creation order). */
export function parseListQuery(query: ListQuery): ListRequest {
  const paged = query.limit !== undefined || query.cursor !== undefined;
  if (!paged) return { order: query.sort ?? "position" };
  if (query.sort !== undefined) throw E.sortWithPages();
  return { start: query.cursor === undefined ? FIRST_PAGE : decodeCursor(query.cursor), limit: query.limit ?? DEFAULT_PAGE };
}

/** `"todos":[...]`, and for a page `"nextCursor":...`: the part of the answer that depends on the todos. */
async function todosPart(ctx: Ctx, set: SetRow, request: ListRequest): Promise<string> {
  if ("order" in request) return `"todos":${JSON.stringify(await readSetTodos(ctx, set.teamId, set.id, request.order))}`;
  const { todos, next } = await readTodoPage(ctx, set.teamId, set.id, request.start, request.limit);
  return `"todos":${JSON.stringify(todos)},"nextCursor":${next ? JSON.stringify(encodeCursor(next)) : "null"}`;
}

/** The same request's part when the caller may not see the todos (a link without canView). */
export const noTodosPart = (request: ListRequest) => ("order" in request ? `"todos":[]` : `"todos":[],"nextCursor":null`);

const utf8 = new TextEncoder();
const requestKey = (r: ListRequest) => ("order" in r ? r.order : `${r.start.createdAt}.${r.start.id}.${r.limit}`);

/**
 * The answer `{<others>, <todos part>}` as UTF-8 bytes, from the set's list cache (list-cache.ts):
 * `others` is the rest of the answer (role and permissions, or a link's head), computed by the
 * caller on each request, so it is part of the key, and the todos part is read again only when
 * the set's list version moved.
 */
export function listAnswer(ctx: Ctx, set: SetRow, request: ListRequest, others: string): Promise<Uint8Array<ArrayBuffer>> {
  const key = `${set.teamId}\n${set.id}\n${requestKey(request)}\n${others}`;
  return ctx.workspace.todos.answers.get(key, set.listVersion, async () => utf8.encode(`{${await todosPart(ctx, set, request)},${others}}`));
}
