import type { RuleSet } from "./rules/rules.match.ts";

/** What forward auth keeps for one app: the compiled rules and the table version they were read at. */
export type ForwardAuthRuntime = {
  /** rules.cache.ts: rebuilt when `forward_auth_rules` moved (any worker, the CLI, plain SQL). */
  rules: { version: number | null; set: RuleSet | null };
};

declare module "../context/context.ts" {
  interface AppContext {
    forwardAuth: ForwardAuthRuntime;
  }
}

export const createForwardAuthRuntime = (): ForwardAuthRuntime => ({ rules: { version: null, set: null } });
