import { Elysia } from "elysia";
import type { Db } from "./client.ts";

const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Group commit at the HTTP edge (db/group-commit.ts): a write request joins the turn's shared
 * transaction just before its handler runs, and no answer, success or error, leaves before the
 * commit that holds what was written so far. A read waits too while a batch is open, so it never
 * shows a write that a crash could still undo. `readOnly` names POST routes that only read
 * (introspection): they open no transaction, and a write they might still make (a client
 * assertion's jti) is durable on its own or lands in a batch some other request opened.
 */
export function commitBeforeAnswer(db: Db, readOnly: ReadonlySet<string> = new Set()) {
  const settle = async () => {
    await db.$group.settled();
  };
  return new Elysia({ name: "commit-before-answer" })
    .onBeforeHandle({ as: "global" }, ({ request, path }) => {
      if (!SAFE.has(request.method) && !readOnly.has(path)) db.$group.join();
    })
    .onAfterHandle({ as: "global" }, settle)
    .onError({ as: "global" }, settle);
}
