import { Elysia } from "elysia";
import { notSaved } from "../shared/http.errors.ts";
import type { Db } from "./client.ts";

const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);
/** Where on a request's context the number of the first batch it could write into is kept. */
const SINCE = Symbol("first batch");
type Joined = { [SINCE]?: number };

/** What a request whose writes could not be made durable answers: nothing it did is acknowledged. */
const failed = (cause: unknown) => notSaved(`commit failed: ${cause instanceof Error ? cause.message : String(cause)}`);

/**
 * Group commit at the HTTP edge (db/group-commit.ts): a write request joins the turn's shared
 * transaction just before its handler runs, and no answer, success or error, leaves before the
 * commit that holds what was written so far. If a batch holding its writes failed to commit, a
 * success becomes a 503 (an error answer stands as it is). A read waits too while a batch is open,
 * so it never shows a write that a crash could still undo. `readOnly` names POST routes that only
 * read (introspection): they open no transaction, and a write they might still make (a client
 * assertion's jti) is durable on its own or lands in a batch some other request opened.
 */
export function commitBeforeAnswer(db: Db, readOnly: ReadonlySet<string> = new Set()) {
  return new Elysia({ name: "commit-before-answer" })
    .onBeforeHandle({ as: "global" }, (c) => {
      if (!SAFE.has(c.request.method) && !readOnly.has(c.path)) (c as Joined)[SINCE] = db.$group.join();
      // The disk failed an fsync (perhaps found by that join): nothing is served, not even a read of
      // what may not be on disk, until a restart.
      const broken = db.$group.failure();
      if (broken) throw failed(broken);
    })
    .onAfterHandle({ as: "global" }, async (c) => {
      try {
        await db.$group.settled((c as Joined)[SINCE]);
      } catch (e) {
        // The refusal must not set or clear a cookie, or redirect, for what was rolled back.
        delete c.set.headers["set-cookie"];
        delete c.set.headers.location;
        throw failed(e);
      }
    })
    .onError({ as: "global" }, async () => {
      await db.$group.settled()?.catch(() => {});
    });
}
