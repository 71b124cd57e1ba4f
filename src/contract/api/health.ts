import { type Static, Type } from "@sinclair/typebox";
import { oneOf } from "./common.ts";

// What load balancers and orchestrators ask (`/healthz`, `/readyz`).

/** The process answers. */
export const Liveness = Type.Object({ ok: Type.Literal(true), version: Type.String() });
export type Liveness = Static<typeof Liveness>;

/** Whether the database reads and can be written; 503 with the reason when not. */
export const Readiness = Type.Union([
  Type.Object({ ok: Type.Literal(true), database: Type.Literal("ok"), version: Type.String() }),
  Type.Object({
    ok: Type.Literal(false),
    database: oneOf(["unavailable", "read-only", "locked"]),
    reason: Type.String(),
    version: Type.String(),
  }),
]);
export type Readiness = Static<typeof Readiness>;
