import type { AppContext } from "../context/context.ts";
import { ID_TOKEN_ALGS } from "./jwt-signer.ts";
import { keysDue, rotateKeys } from "./keystore.ts";

/** `cairn keys rotate`: new ID-token keys now; the old ones stay in the JWKS for the overlap. */
export function rotateIdTokenKeys(ctx: Pick<AppContext, "db" | "clock" | "secrets" | "keys">): Promise<string[]> {
  return rotateKeys(ctx, "id_token", [...ID_TOKEN_ALGS]);
}

/** The daily job: rotates once the active keys are 90 days old. */
export async function rotateIfDue(ctx: Pick<AppContext, "db" | "clock" | "secrets" | "log" | "keys">): Promise<void> {
  if (!(await keysDue(ctx, "id_token"))) return;
  const kids = await rotateIdTokenKeys(ctx);
  ctx.log.info("signing keys rotated", { kids });
}
