import { Elysia } from "elysia";
import type { Db } from "./client.ts";

const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Group commit at the HTTP edge (db/group-commit.ts): a write request joins the turn's shared
 * transaction just before its handler runs, and no answer, success or error, leaves before the
 * commit that holds what was written so far. A read waits too while a batch is open, so it never
 * shows a write that a crash could still undo.
 */
export function commitBeforeAnswer(db: Db) {
  const settle = async () => {
    await db.$group.settled();
  };
  return new Elysia({ name: "commit-before-answer" })
    .onBeforeHandle({ as: "global" }, ({ request }) => {
      if (!SAFE.has(request.method)) db.$group.join();
    })
    .onAfterHandle({ as: "global" }, settle)
    .onError({ as: "global" }, settle);
}
