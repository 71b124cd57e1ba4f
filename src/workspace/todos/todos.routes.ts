import { Elysia } from "elysia";
import type { AppContext } from "../../context/context.ts";
import { Ok } from "../../contract/api/common.ts";
import { AssignedToMe, AssigneesSet, CreatedTodo, DueSoon, MemberList, TodoList } from "../../contract/api/workspace.ts";
import { workspacePlugin } from "../plugin/workspace.plugin.ts";
import { assignedToMe, rememberExpand, replaceAssignees } from "./assignees.service.ts";
import { listMembers } from "../members/members.service.ts";
import { dueSoon } from "./due-soon.service.ts";
import { todoSchemas } from "./todos.schemas.ts";
import { createTodo, deleteTodo, listTodos, moveTodo, patchTodo, reorderTodos } from "./todos.service.ts";

/** Spec 2 section 4.2: todos, assignees, members, assigned-to-me; and Cairn's due-soon. */
export function todosRoutes(ctx: AppContext) {
  const { AssigneesBody, CreateTodoBody, ListQuery, MoveBody, PatchTodoBody, ReorderBody, SetParams, TodoParams } = todoSchemas();
  // Fresh hook objects per route: Elysia writes into them.
  const member = () => ({ workspace: "member" as const });
  return (
    new Elysia({ name: "todos-routes" })
      .use(workspacePlugin(ctx))
      .get(
        "/api/teams/:teamId/sets/:setId/todos",
        async ({ caller, params, query, set }) => {
          const body = await listTodos(ctx, caller, params.setId, query);
          set.headers["content-type"] = "application/json";
          // A prebuilt answer (cached bytes): the schema types it, and Elysia checks no Response.
          return new Response(body);
        },
        { ...member(), params: SetParams, query: ListQuery, response: TodoList },
      )
      .post(
        "/api/teams/:teamId/sets/:setId/todos",
        async ({ caller, params, body, set }) => {
          const answer = await createTodo(ctx, caller, params.setId, body);
          set.status = 201;
          return answer;
        },
        { ...member(), params: SetParams, body: CreateTodoBody, response: { 201: CreatedTodo } },
      )
      // Static paths before `/todos/:id` so "reorder" is never taken for an id.
      .post("/api/teams/:teamId/todos/reorder", ({ caller, body }) => reorderTodos(ctx, caller, body), { ...member(), body: ReorderBody, response: Ok })
      .patch("/api/teams/:teamId/todos/:id", ({ caller, params, body }) => patchTodo(ctx, caller, params.id, body), {
        ...member(),
        params: TodoParams,
        body: PatchTodoBody,
        response: Ok,
      })
      .delete("/api/teams/:teamId/todos/:id", ({ caller, params }) => deleteTodo(ctx, caller, params.id), { ...member(), params: TodoParams, response: Ok })
      .post("/api/teams/:teamId/todos/:id/move", ({ caller, params, body }) => moveTodo(ctx, caller, params.id, body), {
        ...member(),
        params: TodoParams,
        body: MoveBody,
        response: Ok,
      })
      .put("/api/teams/:teamId/todos/:id/assignees", ({ caller, params, body }) => replaceAssignees(ctx, caller, params.id, body.userIds), {
        ...member(),
        params: TodoParams,
        body: AssigneesBody,
        response: AssigneesSet,
      })
      .get("/api/teams/:teamId/members", async ({ caller }) => ({ members: await listMembers(ctx, caller) }), { ...member(), response: MemberList })
      .get("/api/teams/:teamId/assigned-to-me", ({ caller }) => assignedToMe(ctx, caller), { ...member(), response: AssignedToMe })
      .get("/api/teams/:teamId/due-soon", ({ caller }) => dueSoon(ctx, caller), { ...member(), response: DueSoon })
      // A beacon: any body (read as text, so even broken JSON is no error), always {ok:true}.
      .post("/api/teams/:teamId/assigned-expand", async ({ caller, body }) => (await rememberExpand(ctx, caller, body), { ok: true as const }), {
        ...member(),
        parse: "text",
        response: Ok,
      })
  );
}
