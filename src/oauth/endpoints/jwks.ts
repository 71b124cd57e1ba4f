import type { AppContext } from "../../context/context.ts";
import { signingKey, publishedJwks } from "../../keys/keystore.ts";
import { ID_TOKEN_ALGS } from "../../keys/jwt-signer.ts";

const cache = new WeakMap<object, { at: number; body: string }>();
const REFRESH_MS = 60_000;

/**
 * The JWKS document, serialized once and served from memory; re-read every minute so keys a
 * rotation (possibly by `cairn keys rotate` in another process) adds or retires show up.
 */
export async function jwksBody(ctx: Pick<AppContext, "db" | "clock" | "secrets">): Promise<string> {
  const cached = cache.get(ctx.db);
  if (cached && ctx.clock.now() - cached.at < REFRESH_MS) return cached.body;
  for (const alg of ID_TOKEN_ALGS) await signingKey(ctx, "id_token", alg);
  const body = JSON.stringify({ keys: publishedJwks(ctx, ["id_token", "logout"]) });
  cache.set(ctx.db, { at: ctx.clock.now(), body });
  return body;
}

/** Drops the served copy (after a rotation in this process). */
export function forgetJwks(ctx: Pick<AppContext, "db">): void {
  cache.delete(ctx.db);
}
