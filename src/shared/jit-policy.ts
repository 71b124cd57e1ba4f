import { Elysia } from "elysia";

/**
 * The executable starts with JavaScriptCore's tier-up thresholds raised (src/build/executable.ts):
 * start-up code runs once and never repays its compilation, whose machine code and the compiler's
 * own pages would stay in memory for good (issue 12, idle memory). The first request brings the
 * normal policy back, before any request path has run, so those are compiled as usual. (Code seems
 * to keep the policy it first ran under: restoring it only after a thousand requests left the
 * request paths at a third less throughput; from the first request on they measure as without
 * the raised policy.) From source the policy is already normal.
 */
export function jitFromFirstRequest(restore: () => void = () => Bun.unsafe.setJITPolicy(1)) {
  let restored = false;
  return new Elysia({ name: "jit-policy" }).onRequest(() => {
    if (restored) return;
    restored = true;
    restore();
  });
}
