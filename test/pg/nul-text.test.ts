import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { startApp, type TestApp } from "../helpers/app.ts";
import { freshPostgresUrl, TEST_PG_SECRET } from "../helpers/pg-store.ts";
import { pgSkipReason } from "../helpers/postgres.ts";
import { postForm, TOKEN } from "../oauth/oauth.fixtures.ts";

// Issue 46: PostgreSQL's text cannot hold NUL (SQLSTATE 22021), which SQLite stores. A NUL in what a
// request names is the caller's mistake: a 400 in the route's own format, never a 500.
describe.skipIf(pgSkipReason !== null)("a NUL character in a request on PostgreSQL", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startApp({ env: { CAIRN_DATABASE_URL: await freshPostgresUrl(), CAIRN_SECRET: TEST_PG_SECRET } });
  });
  afterAll(() => app?.stop());

  it("answers a NUL in a client_id at the token endpoint with RFC 6749's invalid_request", async () => {
    const res = await postForm(app, TOKEN, { grant_type: "client_credentials", client_id: "app\u0000", client_secret: "x" });
    expect(res.status).toBe(400);
    expect(res.data).toEqual({ error: "invalid_request", error_description: "The request contains a NUL character." });
  });

  it("answers a NUL in a sign-in name with invalid_request, and logs no unhandled error", async () => {
    const res = await app.json("POST", "/api/auth/login", { login: "ali\u0000ce", password: "correct horse battery" });
    expect(res.status).toBe(400);
    expect(res.data).toEqual({ error: "invalid_request", error_description: "The request contains a NUL character." });
    expect(app.logs.filter((line) => line.msg === "unhandled error")).toEqual([]);
  });
});
