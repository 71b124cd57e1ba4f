import type { DocumentDecoration } from "elysia";

/** An OpenAPI vendor extension on each route, as error-style.ts's is: Elysia keeps a macro's `detail` on the routes that name it. */
const KEY = "x-guard";

/**
 * What a guard macro (`auth`, `workspace`, `workspaceSession`, `shareLink`) returns beside its
 * `resolve`: the options a route gave it, kept on that route, so the route table (`npm run
 * routes`) can say what each route demands from the app's own router.
 */
export const guardDetail = (macro: string, options: unknown): DocumentDecoration => ({ [KEY]: { [macro]: options } }) as DocumentDecoration;

/** The guard macros a route of the app's route table (Elysia's `app.routes`) names, with their options. */
export const guardsOf = (route: { hooks?: { detail?: unknown } }): Record<string, unknown> =>
  ((route.hooks?.detail as Record<string, Record<string, unknown>> | undefined)?.[KEY] ?? {}) as Record<string, unknown>;
