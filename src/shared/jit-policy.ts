import { Elysia } from "elysia";

/**
 * The executable starts with JavaScriptCore's tier-up thresholds raised (src/build/executable.ts):
 * start-up code runs once and never repays its compilation, whose machine code and the compiler's
 * own pages would stay in memory for good (issue 12, idle memory). The first request brings the
 * normal policy back, so what serves requests is compiled as usual. (A function keeps the
 * thresholds it was created with: restoring later, after the request paths had run, left them
 * in the interpreter for good, at a third less throughput.) From source the policy is already normal.
 */
export function jitFromFirstRequest(restore: () => void = () => Bun.unsafe.setJITPolicy(1)) {
  let restored = false;
  return new Elysia({ name: "jit-policy" }).onRequest(() => {
    if (restored) return;
    restored = true;
    restore();
  });
}
