import { expect, test } from "bun:test";
import { Elysia } from "elysia";
import { jitFromFirstRequest } from "../../src/shared/jit-policy.ts";

// Issue 12, idle memory: the executable starts with start-up code kept out of the JIT, and the
// first request brings the normal policy back (a function keeps the thresholds it was made with).
test("the normal JIT policy comes back with the first request, once", async () => {
  let restored = 0;
  const app = new Elysia()
    .use(jitFromFirstRequest(() => restored++))
    .get("/a", () => "a")
    .post("/b", () => "b");
  expect(restored).toBe(0);
  expect(await (await app.handle(new Request("http://cairn.test/a"))).text()).toBe("a");
  expect(restored).toBe(1);
  await app.handle(new Request("http://cairn.test/b", { method: "POST", body: "x" }));
  await app.handle(new Request("http://cairn.test/missing"));
  expect(restored).toBe(1);
});

test("restoring the policy is safe where it is already normal (running from source)", () => {
  expect(() => Bun.unsafe.setJITPolicy(1)).not.toThrow();
});
