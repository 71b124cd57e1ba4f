import { onFirstUse } from "./on-first-use.ts";

/** yaml (72 modules), loaded with the first YAML import, export or catalog read rather than at start. */
export const yaml = onFirstUse(() => require("yaml") as typeof import("yaml"));
