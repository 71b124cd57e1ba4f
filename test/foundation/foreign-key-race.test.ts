import { describe, expect, it } from "bun:test";
import { join } from "node:path";
import { type AnyElysia, Elysia } from "elysia";
import { openDatabase } from "../../src/db/client.ts";
import { errorStyle } from "../../src/shared/error-style.ts";
import { httpErrors } from "../../src/shared/http-errors.ts";
import { createLogger } from "../../src/shared/log.ts";
import { tempDir } from "../helpers/temp.ts";

/*
 * A request that authenticated a moment before its account was deleted (or its team, its app)
 * and then writes a row pointing at it is refused by the database's foreign key. That is the
 * caller's race, not a fault of the server: 409 in the endpoint's own error format, nothing
 * written, never a 500.
 */
describe("a write whose referenced row was removed meanwhile", () => {
  const db = openDatabase(join(tempDir(), "t.db"));
  db.$client.run("CREATE TABLE account (id INTEGER PRIMARY KEY)");
  db.$client.run("CREATE TABLE note (id INTEGER PRIMARY KEY, account INTEGER NOT NULL REFERENCES account(id))");
  const insertFor = (account: number) => db.$client.run("INSERT INTO note (account) VALUES (?)", [account]);
  // The OAuth route's router declares the RFC 6749 error style, as the identity API's do.
  const app: AnyElysia = new Elysia()
    .use(httpErrors(createLogger("silent"), () => app.routes))
    .post("/api/teams/x/notes", () => insertFor(404))
    .post("/api/oauth/me/notes", () => insertFor(404), { detail: errorStyle("rfc6749") });
  const post = async (path: string) => {
    const res = await app.handle(new Request(`http://localhost${path}`, { method: "POST" }));
    return { status: res.status, body: await res.json() };
  };

  it("answers 409 in the application format and writes nothing", async () => {
    expect(await post("/api/teams/x/notes")).toEqual({
      status: 409,
      body: { error: "Conflict", code: "conflict", error_description: "Something this request refers to was removed meanwhile." },
    });
    expect(db.$client.query("SELECT count(*) AS n FROM note").get()).toEqual({ n: 0 });
  });

  it("answers 409 in RFC 6749 form on OAuth routes", async () => {
    expect(await post("/api/oauth/me/notes")).toEqual({
      status: 409,
      body: { error: "invalid_request", error_description: "Something this request refers to was removed meanwhile." },
    });
  });
});
