import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { type AnyElysia, Elysia } from "elysia";
import { openDatabase } from "../../src/db/client.ts";
import { commitBeforeAnswer } from "../../src/db/commit-before-answer.ts";
import { AppError } from "../../src/shared/errors.ts";
import { errorStyle } from "../../src/shared/error-style.ts";
import { httpErrors } from "../../src/shared/http-errors.ts";
import { createLogger } from "../../src/shared/log.ts";
import { tempDir } from "../helpers/temp.ts";

/**
 * A request that awaits between its writes and its answer (a signature, a fetch) can see the
 * batch holding its writes commit, or fail, before it answers. A failed COMMIT (a full disk, an
 * I/O error) rolls the whole batch back, so the answer must not be a success. The failure is made
 * real here with a deferred foreign key, which SQLite checks only at COMMIT.
 */
// Both ways a batch is made durable: the WAL fsync inside COMMIT, or after it off the event loop.
for (const syncOffLoop of [false, true])
  describe(`group commit (${syncOffLoop ? "WAL fsync off the event loop" : "fsync inside COMMIT"}): no success is answered for writes whose batch failed to commit`, () => {
    const setup = () => {
      const db = openDatabase(join(tempDir(), "t.db"), { syncOffLoop });
      db.$client.run("CREATE TABLE parent (id INTEGER PRIMARY KEY)");
      db.$client.run("CREATE TABLE child (id INTEGER PRIMARY KEY, parent INTEGER REFERENCES parent(id))");
      const write = (id: number) => db.$client.run("INSERT INTO parent (id) VALUES (?)", [id]);
      // Breaks the open batch: the child's parent does not exist, which COMMIT refuses.
      const poison = (id: number) => {
        db.$client.run("PRAGMA defer_foreign_keys = ON");
        db.$client.run("INSERT INTO child (id, parent) VALUES (?, 999999)", [id]);
      };
      // A write whose batch fails while the handler still awaits (a signature, a fetch).
      const failedWrite = async () => {
        write(1);
        poison(1);
        await Bun.sleep(10); // the batch commits (and fails) meanwhile
      };
      const stored = (id: number) => db.$client.query("SELECT id FROM parent WHERE id = ?").get(id) !== null;
      const app = (routes: (app: AnyElysia) => AnyElysia) => {
        const server: AnyElysia = routes(new Elysia().use(httpErrors(createLogger("silent"), () => server.routes)).use(commitBeforeAnswer(db)));
        return server;
      };
      const post = (app: AnyElysia, path: string) => app.handle(new Request(`http://localhost${path}`, { method: "POST" }));
      return { db, write, poison, failedWrite, stored, app, post };
    };

    test("a write that awaits past its batch's failed commit answers 503 and is absent", async () => {
      const { failedWrite, stored, app, post } = setup();
      const server = app((a) =>
        a.post("/api/sets", async () => {
          await failedWrite();
          return { ok: true };
        }),
      );
      const res = await post(server, "/api/sets");
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toBe("1");
      expect(await res.json()).toEqual({ error: "Service unavailable", code: "service_unavailable" });
      expect(stored(1)).toBe(false);
    });

    test("the identity and OAuth APIs answer it in their RFC 6749 shape", async () => {
      const { failedWrite, app, post } = setup();
      const server = app((a) =>
        a.post(
          "/api/oauth/token",
          async () => {
            await failedWrite();
            return { access_token: "never sent" };
          },
          { detail: errorStyle("rfc6749") },
        ),
      );
      const res = await post(server, "/api/oauth/token");
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ error: "temporarily_unavailable", error_description: "The change could not be saved; try again." });
    });

    test("writes that commit are answered, also after an earlier batch failed", async () => {
      const { write, failedWrite, stored, app, post } = setup();
      const server = app((a) =>
        a
          .post("/broken", async () => {
            await failedWrite();
            return { ok: true };
          })
          .post("/fine", async () => {
            write(2);
            await Bun.sleep(10);
            write(3); // outside any batch by now: committed on its own
            return { ok: true };
          }),
      );
      expect((await post(server, "/broken")).status).toBe(503);
      const res = await post(server, "/fine");
      expect(res.status).toBe(200);
      expect([stored(1), stored(2), stored(3)]).toEqual([false, true, true]);
    });

    test("a request whose handler waits on another's failed batch is refused with it", async () => {
      const { write, poison, app, post } = setup();
      let release = () => {};
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      const server = app((a) =>
        a
          .post("/first", async () => {
            write(1);
            await gate;
            return { ok: true };
          })
          .post("/second", () => {
            poison(2);
            return { ok: true };
          }),
      );
      // Both join one batch in the same turn; the second's poison fails the first's write too.
      const [first, second] = [post(server, "/first"), post(server, "/second")];
      expect((await second).status).toBe(503);
      release();
      expect((await first).status).toBe(503);
    });

    test("the refusal neither sets a cookie nor redirects, and the failure is reported once", async () => {
      const { db, failedWrite, app, post } = setup();
      const failures: string[] = [];
      db.$group.observeFailures((error, batch) => failures.push(`${batch}: ${error.message}`));
      const server = app((a) =>
        a.post("/api/auth/login", async ({ set }) => {
          set.headers["set-cookie"] = "cairn_session=rolled-back; Path=/; HttpOnly";
          set.headers.location = "/welcome";
          await failedWrite();
          return { ok: true };
        }),
      );
      const res = await post(server, "/api/auth/login");
      expect(res.status).toBe(503);
      expect(res.headers.get("set-cookie")).toBeNull();
      expect(res.headers.get("location")).toBeNull();
      expect(failures).toEqual(["1: FOREIGN KEY constraint failed"]);
    });

    test("an error answer stands as it is", async () => {
      const { failedWrite, app, post } = setup();
      const server = app((a) =>
        a.post("/api/sets", async () => {
          await failedWrite();
          throw new AppError("conflict", 409, "Conflict");
        }),
      );
      const res = await post(server, "/api/sets");
      expect(res.status).toBe(409);
      expect(await res.json()).toEqual({ error: "Conflict", code: "conflict" });
    });
  });
