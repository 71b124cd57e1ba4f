import { describe, expect, it } from "bun:test";
import { Type } from "@sinclair/typebox";
import { type AnyElysia, Elysia } from "elysia";
import { httpErrors } from "../../src/shared/http-errors.ts";
import { createLogger } from "../../src/shared/log.ts";

/*
 * What a route's `response:` schema does to its answer (src/contract/api): the app validates what
 * it sends, as the root's `normalize: "typebox"` configures it (src/app.ts).
 */
function appWith(answer: unknown, status = 200) {
  const logs: Record<string, unknown>[] = [];
  const Answer = Type.Object({ name: Type.String() });
  const app: AnyElysia = new Elysia({ normalize: "typebox" })
    .use(
      httpErrors(
        createLogger("info", (line) => logs.push(JSON.parse(line))),
        () => app.routes,
      ),
    )
    .get(
      "/answer",
      ({ set }) => {
        set.status = status;
        return answer as never;
      },
      { response: { 200: Answer, 201: Answer } },
    );
  const get = async () => {
    const res = await app.handle(new Request("http://localhost/answer"));
    return { status: res.status, body: await res.json() };
  };
  return { get, logs };
}

describe("an answer checked against its route's response schema", () => {
  it("passes unchanged when it fits", async () => {
    expect(await appWith({ name: "a" }).get()).toEqual({ status: 200, body: { name: "a" } });
  });

  it("loses the fields the schema does not name, so a schema must name every field the server answers", async () => {
    expect((await appWith({ name: "a", extra: 1 }).get()).body).toEqual({ name: "a" });
  });

  it("is a logged 500 when it breaks the schema: the server's fault, not a 400 blaming the caller", async () => {
    for (const status of [200, 201]) {
      const { get, logs } = appWith({ name: 1 }, status);
      const answer = await get();
      expect(answer.status).toBe(500);
      expect(answer.body).not.toHaveProperty("name");
      expect(logs.find((l) => l.msg === "answer does not match its schema")).toMatchObject({ level: "error", path: "/answer" });
    }
  });
});
